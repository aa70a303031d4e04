import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

/**
 * `node dist/nest/main.js` with ANTHROPIC_API_KEY set, then:
 *   curl -s localhost:3000/chat -H 'x-customer-id: C-ana' -H 'content-type: application/json' \
 *        -d '{"message": "Onde está o pedido A-1001?"}'
 * The e2e test runs the same app against the scripted server instead.
 */
async function bootstrap(): Promise<void> {
  if (!process.env.ANTHROPIC_API_KEY) {
    console.error('Set ANTHROPIC_API_KEY to chat with the real API (the e2e test uses the scripted server).');
    process.exitCode = 1;
    return;
  }
  const app = await NestFactory.create(
    AppModule.forRoot({ client: new Anthropic(), model: process.env.TOOLWRIGHT_DEMO_MODEL ?? 'claude-haiku-5-5' }),
  );
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
  console.log(`POST ${await app.getUrl()}/chat, MCP (Streamable HTTP) at ${await app.getUrl()}/mcp`);
}

void bootstrap();
