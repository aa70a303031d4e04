import { Module } from '@nestjs/common';
import Anthropic from '@anthropic-ai/sdk';
import { ToolsModule } from '@toolwright/nest';
import { ChatController } from './chat/chat.controller.js';
import { SessionGuard } from './chat/session.guard.js';
import { Database, DatabaseModule } from './database/database.module.js';
import { OrdersModule } from './orders/orders.module.js';
// Written by tools-codegen (npm runs it before build, test and start). "Cannot find module
// './tools.generated.js'" means it has not run yet: npm run codegen.
import { toolManifest } from './tools.generated.js';

@Module({
  imports: [
    // forRootAsync: the run store waits for its database, which is opened and migrated first.
    ToolsModule.forRootAsync({
      imports: [DatabaseModule],
      inject: [Database],
      useFactory: (database: Database) => ({
        manifest: toolManifest,
        // Reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL when the app starts.
        client: new Anthropic(),
        model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5',
        // Writes (cancelling an order) wait for the user's decision: POST /runs/:id/decisions.
        approval: 'writes',
        store: database.runStore,
        runDefaults: { system: 'You answer customers of the online shop.', maxTurns: 6 },
      }),
    }),
    OrdersModule,
  ],
  controllers: [ChatController],
  providers: [SessionGuard],
})
export class AppModule {}
