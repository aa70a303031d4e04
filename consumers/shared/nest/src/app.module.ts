import { Module } from '@nestjs/common';
import Anthropic from '@anthropic-ai/sdk';
import { ToolsModule } from '@toolwright/nest';
import { ChatController } from './chat.controller.js';
import { OrdersModule } from './orders/orders.module.js';
import { toolManifest } from './tools.generated.js';

@Module({
  imports: [
    ToolsModule.forRoot({
      manifest: toolManifest,
      // Reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment.
      client: new Anthropic(),
      model: 'claude-haiku-4-5',
      runDefaults: { maxTurns: 4 },
    }),
    OrdersModule,
  ],
  controllers: [ChatController],
})
export class AppModule {}
