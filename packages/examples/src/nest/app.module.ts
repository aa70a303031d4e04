import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import type { ApprovalPolicy, RunStore, ToolManifest } from '@toolwright/core';
import { ToolsModule, type ToolsModuleOptions } from '@toolwright/nest';
import { OrdersRepository } from '../orders/orders.repository';
import { OrdersTools } from '../orders/orders.tools';
import { toolManifest } from '../tools.generated';
import { ChatController } from './chat.controller';
import { AppRunStore, type RunStoreOptions } from './run-store';
import { SessionGuard } from './session.guard';

/**
 * The orders tools as Nest providers. `OrdersTools` is built by a factory so the example class
 * stays free of Nest (the plain demo uses it too); a class with `@Injectable()` works the same.
 */
@Module({})
export class OrdersModule {
  static forRoot(orders = new OrdersRepository()): DynamicModule {
    return {
      module: OrdersModule,
      providers: [
        { provide: OrdersRepository, useValue: orders },
        { provide: OrdersTools, useFactory: (repo: OrdersRepository) => new OrdersTools(repo), inject: [OrdersRepository] },
      ],
      exports: [OrdersRepository],
    };
  }
}

export interface AppOptions {
  client: NonNullable<ToolsModuleOptions['client']>;
  model: string;
  /** The generated manifest by default; tests pass a stale one. */
  manifest?: ToolManifest;
  /** Which calls wait for the customer's go-ahead; `'writes'` by default (cancelling an order). */
  approval?: ApprovalPolicy;
  /** Where runs are kept; by default Postgres at `database.databaseUrl`, else PGlite in `database.dataDir`. */
  store?: RunStore;
  database?: RunStoreOptions;
  /** The shop's orders; stands for the database the tools write to, which outlives the app. */
  orders?: OrdersRepository;
}

@Module({})
export class AppModule {
  static forRoot(options: AppOptions): DynamicModule {
    const database = options.store ? undefined : new AppRunStore(options.database ?? {});
    const providers: Provider[] = [SessionGuard, ...(database ? [{ provide: AppRunStore, useValue: database }] : [])];
    return {
      module: AppModule,
      imports: [
        ToolsModule.forRoot({
          manifest: options.manifest ?? toolManifest,
          client: options.client,
          model: options.model,
          approval: options.approval ?? 'writes',
          store: options.store ?? database!.store,
          runDefaults: { system: 'Você atende clientes da loja online. Responda em português.', maxTurns: 6 },
          // The same tools for MCP clients, behind the same authentication as /chat.
          mcp: { path: '/mcp', name: 'toolwright-orders', guards: [SessionGuard] },
        }),
        OrdersModule.forRoot(options.orders),
      ],
      controllers: [ChatController],
      providers,
    };
  }
}
