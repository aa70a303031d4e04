// Run stores: what `PostgresRunStore` on a real PostgreSQL server (started for the bench by
// @toolwright/pg-testkit, through pg's Pool) costs beside `InMemoryRunStore`, against an
// in-process fake of `client.messages.create` (no HTTP, so the figures are the loop's and the
// store's). Two measures:
// - one batch (the model asks for a read and a write, then answers in text) through runToolLoop
//   with no store, each store: latency per run, p50 and p99, and what the store adds to it;
// - resumes per second: paused runs (a refund waiting for approval) resumed and run to the end
//   by 1 and by 4 processes at once, each with 8 in flight.
import 'reflect-metadata';
import { fork } from 'node:child_process';
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { Ctx, InMemoryRunStore, Param, Tool, ToolContainer, defineToolManifest, resumeToolLoop, runToolLoop, type RunStore, type ToolContext } from '@toolwright/core';
import { PostgresRunStore, migrate } from '@toolwright/pg-store';
import { startPostgres, type PostgresConnection } from '@toolwright/pg-testkit';
import { Pool } from 'pg';
import { fixed, isCi, markdownTable, progress, ratio, writeSection } from './lib/report';

const BATCHES = isCi ? 30 : 2_000;
const RESUMES_PER_PROCESS = isCi ? 20 : 1_000;
const IN_FLIGHT = 8;
const MODEL = 'claude-haiku-5-5';

type StoreKind = 'memory' | 'postgres';

class Refunds {
  @Tool({ name: 'look_up', effect: 'read' })
  async lookUp(@Param() order: string) {
    return { order, total: 120 };
  }

  @Tool({ name: 'refund', effect: 'write' })
  async refund(@Param() order: string, @Ctx() ctx: ToolContext) {
    return { order, refunded: true, idempotencyKey: ctx.toolUseId };
  }
}

class OrderInput {
  order!: string;
}

const orderSchema = (name: string) => ({
  name,
  description: `${name} an order.`,
  input_schema: { type: 'object' as const, properties: { order: { type: 'string' } }, required: ['order'], additionalProperties: false },
});

const manifest = defineToolManifest([
  { provider: Refunds, method: 'lookUp', definition: orderSchema('look_up'), effect: 'read', inputClass: OrderInput, parameters: [{ kind: 'param', property: 'order' }] },
  {
    provider: Refunds,
    method: 'refund',
    definition: orderSchema('refund'),
    effect: 'write',
    inputClass: OrderInput,
    parameters: [{ kind: 'param', property: 'order' }, { kind: 'ctx' }],
  },
]);

/** With `approval: 'writes'` the refund waits for a decision (resumes); with `'none'` the batch runs through. */
const container = (approval: 'writes' | 'none') => new ToolContainer({ manifest, providers: [new Refunds()], approval });

let responses = 0;
/** Answers like the Messages API: a read and a refund first, then text once the results are in. */
const client = {
  messages: {
    async create(params: MessageCreateParamsNonStreaming): Promise<Message> {
      const answered = params.messages.some((m) => m.role === 'assistant');
      const n = ++responses;
      return {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model: params.model,
        content: answered
          ? [{ type: 'text', text: 'Refunded.', citations: null }]
          : [
              { type: 'tool_use', id: `toolu_${process.pid}_${n}_a`, name: 'look_up', input: { order: 'A-1001' }, caller: { type: 'direct' } },
              { type: 'tool_use', id: `toolu_${process.pid}_${n}_b`, name: 'refund', input: { order: 'A-1001' }, caller: { type: 'direct' } },
            ],
        stop_reason: answered ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      } as unknown as Message;
    },
  },
};

/** A pooled connection the server ended while idle: said, not fatal (the pool replaces it). */
function idleConnectionFailed(error: Error): void {
  console.error(`(an idle Postgres connection failed: ${error.message})`);
}

function openStore(kind: StoreKind, connection: PostgresConnection | undefined): { store: RunStore; close: () => Promise<void> } {
  if (kind === 'memory') return { store: new InMemoryRunStore(), close: async () => undefined };
  const pool = new Pool({ ...connection!, max: IN_FLIGHT });
  pool.on('error', idleConnectionFailed);
  return { store: new PostgresRunStore(pool), close: () => pool.end() };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Milliseconds per run of one batch, one run at a time, in a rotation over the stores so load drifts hit all alike. */
async function batchLatencies(stores: ReadonlyArray<{ name: string; store: RunStore | undefined }>): Promise<Map<string, number[]>> {
  const tools = container('none');
  const samples = new Map(stores.map((s) => [s.name, [] as number[]]));
  const once = async (store: RunStore | undefined) => {
    const started = performance.now();
    const run = await runToolLoop({ client: client as never, model: MODEL, tools, prompt: 'refund A-1001', ...(store && { store }) });
    if (run.stopReason !== 'end_turn') throw new Error(`a batch ended with ${run.stopReason}`);
    return performance.now() - started;
  };
  for (let i = 0; i < Math.min(50, BATCHES); i++) for (const { store } of stores) await once(store);
  for (let i = 0; i < BATCHES; i++) {
    for (const { name, store } of stores) samples.get(name)!.push(await once(store));
    if ((i + 1) % 500 === 0) progress(`store: ${i + 1} batches each`);
  }
  for (const values of samples.values()) values.sort((a, b) => a - b);
  return samples;
}

/** A child process: pauses its runs, says `ready`, resumes them all on `go`, reports the time. */
async function child(kind: StoreKind, connection: PostgresConnection | undefined): Promise<void> {
  const { store, close } = openStore(kind, connection);
  const tools = container('writes');
  const paused: Array<{ runId: string; toolUseId: string }> = [];
  for (let i = 0; i < RESUMES_PER_PROCESS; i++) {
    const run = await runToolLoop({ client: client as never, model: MODEL, tools, store, prompt: 'refund A-1001' });
    paused.push({ runId: run.runId!, toolUseId: run.pending![0].toolUseId });
  }
  process.send!({ type: 'ready' });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < paused.length) {
        const { runId, toolUseId } = paused[next++];
        const done = await resumeToolLoop({ client: client as never, model: MODEL, tools, store, runId, decisions: { [toolUseId]: { approve: true } } });
        if (done.stopReason !== 'end_turn') throw new Error(`a resume ended with ${done.stopReason}`);
      }
    }),
  );
  const ms = performance.now() - started;
  await close();
  process.send!({ type: 'done', ms }, () => process.exit(0));
}

/** Resumes per second over `processes` processes started together, each with its own store object. */
async function resumesPerSecond(kind: StoreKind, processes: number, connection: PostgresConnection | undefined): Promise<number> {
  const children = Array.from({ length: processes }, () =>
    // The connection (its password) goes in the environment, which other users cannot read, not in argv.
    fork(__filename, ['--child', kind, ...(isCi ? ['--ci'] : [])], {
      env: { ...process.env, BENCH_PG_CONNECTION: JSON.stringify(connection ?? null) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const next = (c: ReturnType<typeof fork>) =>
    new Promise<{ type: string; ms?: number }>((resolve, reject) => {
      c.once('message', resolve);
      c.once('exit', (code) => code !== 0 && reject(new Error(`a resume process exited with ${code}`)));
    });
  await Promise.all(children.map(next));
  const started = performance.now();
  const done = children.map(next);
  for (const c of children) c.send('go');
  await Promise.all(done);
  return (processes * RESUMES_PER_PROCESS) / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const server = await startPostgres();
  const pool = new Pool({ ...server.connection, max: IN_FLIGHT });
  // pool.end() resolves before its sockets close: the server's stop can still reach one.
  pool.on('error', idleConnectionFailed);
  try {
    await migrate(pool);
    const stores = [
      { name: 'no store', store: undefined },
      { name: '`InMemoryRunStore`', store: new InMemoryRunStore() },
      { name: '`PostgresRunStore` (Pool, real server)', store: new PostgresRunStore(pool) },
    ];
    const latencies = await batchLatencies(stores);
    const base = latencies.get('no store')!;
    const latencyRows = stores.map(({ name }) => {
      const values = latencies.get(name)!;
      const p50 = percentile(values, 50);
      const p99 = percentile(values, 99);
      return [name, fixed(p50, 3), fixed(p99, 3), fixed(p50 - percentile(base, 50), 3), fixed(p99 - percentile(base, 99), 3)];
    });

    const throughput: string[][] = [];
    for (const processes of [1, 4]) {
      const memory = await resumesPerSecond('memory', processes, undefined);
      const postgres = await resumesPerSecond('postgres', processes, server.connection);
      progress(`store: resumes at ${processes} process(es) done`);
      throughput.push([String(processes), fixed(memory, 0), fixed(postgres, 0), ratio(postgres, memory)]);
    }

    writeSection(
      'store',
      [
        '## 9. Run stores: `PostgresRunStore` on a real server beside `InMemoryRunStore`',
        '',
        `PostgreSQL ${(await pool.query('SHOW server_version')).rows[0].server_version} started for the bench on 127.0.0.1 (fsync off), reached through \`pg\`'s Pool of ${IN_FLIGHT} connections; ` +
          'an in-process fake `messages.create`, so the figures are the loop and the store, no HTTP.',
        '',
        `One batch through \`runToolLoop\` (a read and a write, then text; no approval), ${BATCHES.toLocaleString('en-US')} runs per store, one at a time, interleaved. Milliseconds per run:`,
        '',
        markdownTable(['store', 'p50 ms', 'p99 ms', 'store adds, p50', 'store adds, p99'], latencyRows),
        '',
        `Resumes per second: paused runs (a refund waiting for approval) resumed to the end, ${RESUMES_PER_PROCESS.toLocaleString('en-US')} per process, ${IN_FLIGHT} in flight in each; ` +
          'every process has its own store object (in memory: its own runs; Postgres: one database).',
        '',
        markdownTable(['processes', '`InMemoryRunStore` resumes/s', '`PostgresRunStore` resumes/s', 'Postgres ÷ in memory'], throughput),
      ].join('\n'),
    );
  } finally {
    await pool.end();
    await server.stop();
  }
}

const childAt = process.argv.indexOf('--child');
if (childAt >= 0) {
  const kind = process.argv[childAt + 1] as StoreKind;
  const connection = JSON.parse(process.env.BENCH_PG_CONNECTION ?? 'null') as PostgresConnection | null;
  child(kind, connection ?? undefined).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
