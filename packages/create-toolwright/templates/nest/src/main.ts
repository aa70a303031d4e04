import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { startScriptedModel } from './scripted-model.js';

async function bootstrap() {
  // Without a key, a scripted model on this machine answers (src/scripted-model.ts); with one, Claude.
  if (!process.env.ANTHROPIC_API_KEY) {
    const scripted = await startScriptedModel();
    process.env.ANTHROPIC_BASE_URL = scripted.url;
    process.env.ANTHROPIC_API_KEY = 'scripted';
    console.log('No ANTHROPIC_API_KEY: the scripted model in src/scripted-model.ts answers. Set the key to ask Claude.');
  }
  const app = await NestFactory.create(AppModule);
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
  const url = await app.getUrl();
  console.log(`POST ${url}/chat with {"message": "Where is order A-1001?"} and the header x-user-id: u-ana`);
}
await bootstrap();
