import { Module, type DynamicModule } from '@nestjs/common';
import type { ToolManifest } from '@toolwright/core';
import { ToolsModule, type ToolsModuleOptions } from '@toolwright/nest';
import { OrdersRepository } from '../orders/orders.repository';
import { OrdersTools } from '../orders/orders.tools';
import { toolManifest } from '../tools.generated';
import { ChatController } from './chat.controller';
import { SessionGuard } from './session.guard';

/**
 * The orders tools as Nest providers. `OrdersTools` is built by a factory so the example class
 * stays free of Nest (the plain demo uses it too); a class with `@Injectable()` works the same.
 */
@Module({
  providers: [
    { provide: OrdersRepository, useFactory: () => new OrdersRepository() },
    { provide: OrdersTools, useFactory: (repo: OrdersRepository) => new OrdersTools(repo), inject: [OrdersRepository] },
  ],
  exports: [OrdersRepository],
})
export class OrdersModule {}

export interface AppOptions {
  client: NonNullable<ToolsModuleOptions['client']>;
  model: string;
  /** The generated manifest by default; tests pass a stale one. */
  manifest?: ToolManifest;
}

@Module({})
export class AppModule {
  static forRoot(options: AppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ToolsModule.forRoot({
          manifest: options.manifest ?? toolManifest,
          client: options.client,
          model: options.model,
          runDefaults: { system: 'Você atende clientes da loja online. Responda em português.', maxTurns: 6 },
          // The same tools for MCP clients, behind the same authentication as /chat.
          mcp: { path: '/mcp', name: 'toolwright-orders', guards: [SessionGuard] },
        }),
        OrdersModule,
      ],
      controllers: [ChatController],
      providers: [SessionGuard],
    };
  }
}
