import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { checkTranscript, startScriptedServer, text, toolUse, turn, type ScriptedServer, type ScriptedTurn } from '@toolwright/core/testing';
import { InMemoryRunStore } from '@toolwright/core';
import { ToolsModule, ToolsService, type ToolsModuleOptions } from '@toolwright/nest';
import { OrdersModule, ordersManifest, type Session } from './fixtures/orders';

const MODEL = 'claude-haiku-5-5';
const bruno: Session = { customerId: 'c-bruno' };

let server: ScriptedServer | undefined;
let app: INestApplication | undefined;

async function startWith(options: Omit<ToolsModuleOptions, 'manifest'>): Promise<ToolsService<Session>> {
  const moduleRef = await Test.createTestingModule({
    imports: [ToolsModule.forRoot({ manifest: ordersManifest, ...options }), OrdersModule],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app.get<ToolsService<Session>>(ToolsService);
}

async function scriptedClient(turns: ScriptedTurn[]): Promise<Anthropic> {
  server = await startScriptedServer({ turns });
  return new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
}

afterEach(async () => {
  await app?.close();
  await server?.close();
  app = server = undefined;
});

const cancelTurns: ScriptedTurn[] = [
  turn('tool_use', text('Vou cancelar.'), toolUse('toolu_01', 'cancelar_pedido', { numero: 'A-1002' })),
  turn('end_turn', text('Pedido A-1002 cancelado.')),
];

describe('ToolsService.run', () => {
  it('runs the loop with the module client, model and defaults, and the caller as ctx.auth', async () => {
    const client = await scriptedClient(cancelTurns);
    const tools = await startWith({ client, model: MODEL, runDefaults: { system: 'Você atende clientes da loja.', maxTokens: 512 } });

    const run = await tools.run({ prompt: 'Cancele o pedido A-1002', context: { auth: bruno } });

    expect(run).toMatchObject({ stopReason: 'end_turn', text: 'Pedido A-1002 cancelado.', turns: 2 });
    expect(checkTranscript(run.messages)).toEqual([]);
    expect(run.messages[2]).toEqual({
      role: 'user',
      content: [expect.objectContaining({ tool_use_id: 'toolu_01', content: 'pedido A-1002 cancelado' })],
    });
    const [first] = server!.requests;
    expect(first.body).toMatchObject({ model: MODEL, system: 'Você atende clientes da loja.', max_tokens: 512 });
    expect(first.body.tools).toMatchObject([{ name: 'buscar_pedido' }, { name: 'cancelar_pedido' }, { name: 'relatorio_diario' }]);
  });

  it('lets a call override the module defaults', async () => {
    const client = await scriptedClient([turn('end_turn', text('Olá!'))]);
    const tools = await startWith({ model: MODEL, runDefaults: { maxTokens: 512 } });

    const run = await tools.run({ client, model: 'claude-sonnet-5', maxTokens: 64, prompt: 'Oi' });

    expect(run.text).toBe('Olá!');
    expect(server!.requests[0].body).toMatchObject({ model: 'claude-sonnet-5', max_tokens: 64 });
  });

  it('says what is missing when neither the module nor the call gives a client', async () => {
    const tools = await startWith({ model: MODEL });

    await expect(tools.run({ prompt: 'Oi' })).rejects.toThrow(
      "ToolsService.run() has no `client`: set it in ToolsModule.forRoot(...) or forRootAsync's factory, or pass it to run().",
    );
  });
});

describe('ToolsService.stream', () => {
  it('streams the same loop as run(), with the module client, model and defaults, the caller as ctx.auth', async () => {
    const client = await scriptedClient(cancelTurns);
    const tools = await startWith({ client, model: MODEL, runDefaults: { maxTokens: 512 } });

    const stream = tools.stream({ prompt: 'Cancele o pedido A-1002', context: { auth: bruno } });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const run = await stream.result;

    expect(run).toMatchObject({ stopReason: 'end_turn', text: 'Pedido A-1002 cancelado.', turns: 2 });
    expect(run.messages[2]).toEqual({
      role: 'user',
      content: [expect.objectContaining({ tool_use_id: 'toolu_01', content: 'pedido A-1002 cancelado' })],
    });
    expect(types).toEqual(expect.arrayContaining(['turn_start', 'text_delta', 'tool_call', 'tool_start', 'tool_end', 'turn_end']));
    expect(types.at(-1)).toBe('done');
    expect(server!.requests[0].body).toMatchObject({ model: MODEL, max_tokens: 512, stream: true });
  });

  it('throws at once, saying what is missing, when neither the module nor the call gives a model', async () => {
    const client = await scriptedClient([]);
    const tools = await startWith({ client });

    expect(() => tools.stream({ prompt: 'Oi' })).toThrow(
      "ToolsService.stream() has no `model`: set it in ToolsModule.forRoot(...) or forRootAsync's factory, or pass it to stream().",
    );
  });
});

describe('ToolsService.resume and streamResume', () => {
  it('streams the resumed run with the module store and defaults, as stream() does run(); another owner is refused first', async () => {
    const client = await scriptedClient(cancelTurns);
    const store = new InMemoryRunStore();
    const tools = await startWith({ client, model: MODEL, approval: 'writes', store, runDefaults: { maxTokens: 512 } });
    const paused = await tools.run({ prompt: 'Cancele o pedido A-1002', context: { auth: bruno }, owner: bruno.customerId });
    expect(paused.stopReason).toBe('approval_required');
    const decisions = { toolu_01: { approve: true } };

    await expect(tools.streamResume({ runId: paused.runId!, decisions, owner: 'c-ana' })).rejects.toMatchObject({ name: 'DecisionError', problem: 'not_owner' });
    await expect(tools.resume({ runId: paused.runId!, decisions, owner: 'c-ana' })).rejects.toMatchObject({ problem: 'not_owner' });
    expect(server!.requests).toHaveLength(1);

    const stream = await tools.streamResume({ runId: paused.runId!, decisions, context: { auth: bruno }, owner: bruno.customerId });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const run = await stream.result;

    expect(run).toMatchObject({ stopReason: 'end_turn', text: 'Pedido A-1002 cancelado.', turns: 2, runId: paused.runId });
    expect(run.messages[2]).toEqual({ role: 'user', content: [expect.objectContaining({ tool_use_id: 'toolu_01', content: 'pedido A-1002 cancelado' })] });
    expect(types).toEqual(expect.arrayContaining(['tool_start', 'tool_end', 'turn_start', 'text_delta', 'turn_end']));
    expect(types.at(-1)).toBe('done');
    expect(server!.requests[1].body).toMatchObject({ model: MODEL, max_tokens: 512, stream: true });
  });

  it('says what is missing when neither the module nor the call gives a store', async () => {
    const client = await scriptedClient([]);
    const tools = await startWith({ client, model: MODEL });

    await expect(tools.streamResume({ runId: 'run_1', decisions: {} })).rejects.toThrow(
      'ToolsService.streamResume() has no `store`: set it in ToolsModule.forRoot(...) or pass it to streamResume().',
    );
  });
});
