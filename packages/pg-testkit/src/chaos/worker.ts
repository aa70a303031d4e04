// One chaos worker process (forked by the driver, main.ts): it resumes whatever run in the
// database is free to resume, deciding the pending calls as the person would, and starts the
// runs the driver hands it, until the driver stops (or kills) it.
import Anthropic from '@anthropic-ai/sdk';
import { ToolContainer, resumeToolLoop, runToolLoop, type ApprovalDecisions, type RunStore } from '@toolwright/core';
import { PostgresRunStore } from '@toolwright/pg-store';
import { Pool } from 'pg';
import { ChaosTools, chaosManifest, type AtPoint } from './chaos-tools';
import { denied, promptFor, type DriverMessage, type KillPoint, type WorkerConfig, type WorkerMessage } from './protocol';

const MODEL = 'claude-haiku-5-5';
const config = JSON.parse(process.env.CHAOS_WORKER ?? '{}') as WorkerConfig;
const pool = new Pool({ ...config.connection, max: 4 });
// An idle connection the server dropped is replaced by the pool; the next query says if it matters.
pool.on('error', () => undefined);
const client = new Anthropic({ baseURL: config.modelUrl, apiKey: 'chaos', maxRetries: 2 });

const send = (message: WorkerMessage) => process.send!(message);
const waiting: Array<(message: DriverMessage) => void> = [];
let stopping = false;
// A driver that died (or was killed) takes its workers with it.
process.on('disconnect', () => process.exit(1));
process.on('message', (message: DriverMessage) => {
  if (message.type === 'stop') {
    // Whatever this worker waits for, it goes on, and stops at the top of its loop.
    stopping = true;
    for (const resolve of waiting.splice(0)) resolve({ type: 'go' });
    return;
  }
  waiting.shift()?.(message);
});
/** A question to the driver; its answer is the next message that is not `stop`. */
const ask = (message: WorkerMessage) =>
  new Promise<DriverMessage>((resolve) => {
    waiting.push(resolve);
    send(message);
  });

const at: AtPoint = async (point: KillPoint, toolUseId?: string) => {
  await ask({ type: 'point', point, ...(toolUseId && { toolUseId }) });
};
const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The store as this worker uses it, stopping at the kill points: a claim or journal write is
 * sent, then the driver is asked (the statement is in flight while it decides).
 */
function instrumented(store: RunStore): RunStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'claim') {
        return async (...args: Parameters<RunStore['claim']>) => {
          const claimed = target.claim(...args);
          claimed.catch(() => undefined);
          await nextTick();
          await at('mid-claim');
          return claimed;
        };
      }
      if (property === 'recordResult') {
        return async (...args: Parameters<RunStore['recordResult']>) => {
          const recorded = target.recordResult(...args);
          recorded.catch(() => undefined);
          await nextTick();
          await at('mid-journal', args[1].tool_use_id);
          const answer = await recorded;
          send({ type: 'journaled', toolUseId: args[1].tool_use_id });
          return answer;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const store = instrumented(new PostgresRunStore(pool, { claimLeaseMs: config.claimLeaseMs }));
const tools = new ToolContainer({ manifest: chaosManifest, providers: [new ChaosTools(pool, at)], approval: 'writes', logger: { error: () => undefined, warn: () => undefined } });

/** A run no live claim holds, other than finished: paused for decisions, or left running by a dead worker. */
async function resumableRun(): Promise<string | undefined> {
  const { rows } = await pool.query(
    `SELECT run_id FROM toolwright_runs WHERE status <> 'finished' AND (lease_expires_at IS NULL OR lease_expires_at <= $1::bigint) ORDER BY random() LIMIT 1`,
    [Date.now()],
  );
  return rows[0]?.run_id as string | undefined;
}

async function resume(runId: string): Promise<void> {
  const stored = await store.load(runId);
  if (!stored || stored.state.status === 'finished') return;
  const decisions: ApprovalDecisions = {};
  for (const call of stored.state.pending) {
    decisions[call.toolUseId] = denied(call.input as { key?: number; step?: number }) ? { approve: false, reason: 'not this one' } : { approve: true };
  }
  await resumeToolLoop({ client, model: MODEL, tools, store, runId, decisions });
}

async function start(key: number): Promise<void> {
  const result = await runToolLoop({ client, model: MODEL, tools, store, prompt: promptFor(key) });
  if (result.stopReason !== 'approval_required') throw new Error(`run ${key} started and stopped with ${result.stopReason}, not approval_required`);
  send({ type: 'started', key });
}

/** A resume that lost a race, or found the run moved on, is how the store answers a second resumer. */
function refusal(error: unknown): string {
  const { name, problem } = error as { name?: string; problem?: string };
  return `${name ?? 'Error'}:${problem ?? (error as Error).message}`;
}

async function main(): Promise<void> {
  send({ type: 'ready' });
  while (!stopping) {
    try {
      const runId = await resumableRun();
      if (runId) {
        await resume(runId);
        continue;
      }
      const answer = await ask({ type: 'want-key' });
      if (answer.type === 'key' && answer.key !== null) await start(answer.key);
      else await new Promise((resolve) => setTimeout(resolve, 50));
    } catch (error) {
      send({ type: 'refused', reason: refusal(error) });
    }
  }
  await pool.end();
  process.exit(0);
}

void main();
