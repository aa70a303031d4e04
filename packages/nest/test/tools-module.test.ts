import 'reflect-metadata';
import { Injectable, Module, Scope, type INestApplication, type LoggerService, type ModuleMetadata } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ManifestMismatchError, Tool, type ToolLogger } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';
import { ToolProviderScopeError, ToolsModule, ToolsService } from '@toolwright/nest';
import { OrderTools, OrdersModule, OrdersRepository, ordersManifest, type Session } from './fixtures/orders';

const ana: Session = { customerId: 'c-ana' };
const bruno: Session = { customerId: 'c-bruno' };

let app: INestApplication | undefined;

async function start(metadata: ModuleMetadata, logger: LoggerService | false = false): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule(metadata).compile();
  app = moduleRef.createNestApplication({ logger });
  await app.init();
  return app;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('ToolsModule.forRoot', () => {
  it('without a manifest (the generated module was never written): app.init() says how to write it', async () => {
    const started = start({ imports: [ToolsModule.forRoot({ manifest: undefined as never }), OrdersModule] });
    await expect(started).rejects.toThrow(/^ToolContainer: no manifest was given \(manifest is undefined\); run tools-codegen/);
  });

  const imports = () => [ToolsModule.forRoot({ manifest: ordersManifest }), OrdersModule];

  it('discovers the tools of a provider in another module and runs them with its injected repository', async () => {
    const tools = (await start({ imports: imports() })).get(ToolsService);

    expect(tools.definitions().map((d) => d.name)).toEqual(['buscar_pedido', 'cancelar_pedido', 'relatorio_diario']);
    const [result] = await tools.execute([toolUse('toolu_1', 'buscar_pedido', { numero: 'A-1001' })], { auth: ana });
    expect(result).toMatchObject({ tool_use_id: 'toolu_1', content: '{"status":"enviado","previsao":"2026-10-20"}' });
    expect(result.is_error).toBeFalsy();
  });

  it('gives tools the auth the caller passed, whatever the input says', async () => {
    const started = await start({ imports: imports() });
    const tools = started.get<ToolsService<Session>>(ToolsService);
    const repo = started.get(OrdersRepository);

    const [refused] = await tools.execute([toolUse('toolu_1', 'cancelar_pedido', { numero: 'A-1002' })], { auth: ana });
    expect(refused).toMatchObject({ is_error: true, content: 'pedido A-1002 não encontrado entre os pedidos do cliente' });
    expect((await repo.find('A-1002'))?.status).toBe('entregue');

    const reply = await tools.reply([toolUse('toolu_2', 'cancelar_pedido', { numero: 'A-1002' })], { auth: bruno });
    expect(reply).toEqual({ role: 'user', content: [expect.objectContaining({ tool_use_id: 'toolu_2', content: 'pedido A-1002 cancelado' })] });
    expect((await repo.find('A-1002'))?.status).toBe('cancelado');
  });

  it("reports a tool's unexpected exception to the application's logger, and only a generic line to the model", async () => {
    const errors: unknown[][] = [];
    const appLogger: LoggerService = { log: () => {}, warn: () => {}, error: (...args: unknown[]) => errors.push(args) };
    const tools = (await start({ imports: imports() }, appLogger)).get(ToolsService);

    const [result] = await tools.execute([toolUse('toolu_1', 'relatorio_diario', {})]);

    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).not.toContain('reporting-db');
    expect(errors).toEqual([[expect.stringContaining('relatorio_diario'), new Error('connection reset by reporting-db:5432'), 'ToolsModule']]);
  });

  it('with isGlobal, lets any module inject ToolsService without importing ToolsModule', async () => {
    @Injectable()
    class ChatService {
      constructor(readonly tools: ToolsService) {}
    }
    @Module({ providers: [ChatService] })
    class ChatModule {}

    const started = await start({ imports: [ToolsModule.forRoot({ manifest: ordersManifest, isGlobal: true }), OrdersModule, ChatModule] });
    expect(started.get(ChatService).tools.definitions()).toHaveLength(3);
  });
});

describe('ToolsModule.forRootAsync', () => {
  const TOOLS_LOGGER = Symbol('TOOLS_LOGGER');

  it('takes its options from a factory with injected dependencies', async () => {
    const logged: unknown[][] = [];
    const logger: ToolLogger = { error: (...args) => logged.push(args), warn: (...args) => logged.push(args) };
    @Module({ providers: [{ provide: TOOLS_LOGGER, useValue: logger }], exports: [TOOLS_LOGGER] })
    class ObservabilityModule {}

    const tools = (
      await start({
        imports: [
          ToolsModule.forRootAsync({
            imports: [ObservabilityModule],
            inject: [TOOLS_LOGGER],
            useFactory: (toolsLogger: ToolLogger) => ({ manifest: ordersManifest, logger: toolsLogger }),
          }),
          OrdersModule,
        ],
      })
    ).get(ToolsService);

    const [result] = await tools.execute([toolUse('toolu_1', 'relatorio_diario', {})]);
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).not.toContain('reporting-db');
    expect(logged).toHaveLength(1);
    expect(String(logged[0][0])).toContain('relatorio_diario');
    expect(logged[0][1]).toEqual(new Error('connection reset by reporting-db:5432'));
  });
});

describe('start-up failures', () => {
  it('fails app.init() with the codegen message when a provider has a @Tool method missing from the manifest', async () => {
    @Injectable()
    class InventoryTools {
      @Tool({ effect: 'read' })
      async countStock(): Promise<number> {
        return 3;
      }
    }
    @Module({ providers: [InventoryTools] })
    class InventoryModule {}

    const failure = start({ imports: [ToolsModule.forRoot({ manifest: ordersManifest }), OrdersModule, InventoryModule] });

    await expect(failure).rejects.toThrow(ManifestMismatchError);
    await expect(failure).rejects.toThrow(/InventoryTools\.countStock has @Tool but no manifest entry[\s\S]*Run `tools-codegen`/);
  });

  it('fails app.init() when a tools provider of the manifest is missing from the application', async () => {
    const failure = start({ imports: [ToolsModule.forRoot({ manifest: ordersManifest })] });

    await expect(failure).rejects.toThrow(/no provider instance of OrderTools was given/);
  });

  it('refuses a request-scoped tools provider, which one container built at start-up could not use', async () => {
    @Module({ providers: [OrdersRepository, { provide: OrderTools, useClass: OrderTools, scope: Scope.REQUEST }] })
    class RequestScopedOrdersModule {}

    const failure = start({ imports: [ToolsModule.forRoot({ manifest: ordersManifest }), RequestScopedOrdersModule] });

    await expect(failure).rejects.toThrow(ToolProviderScopeError);
    await expect(failure).rejects.toThrow(/OrderTools \(in RequestScopedOrdersModule\) holds tools but is request-scoped/);
  });
});
