import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { InMemoryRunStore, RunConflictError, RunStoreError, ToolContainer, runToolLoop, type MessagesClient, type RunStore } from '@toolwright/core';
import { text, toolUse, turn, type ScriptedReply } from '@toolwright/core/testing';
import { ShopTools, Timeline, shopManifest, sleep, type Wait } from '../loop/fixtures/shop-tools';
import { connectionLost, faultyStore, type Fault } from './fixtures/faulty-store';
import { replayClient } from './fixtures/refunds';

// A stored run's claim (loop/durable-run.ts): the heartbeat that renews it, and what the run does
// once the claim is lost. Counted on the store's calls, never on a clock.

const MODEL = 'claude-haiku-5-5';
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function shop(wait?: Wait, approval?: 'writes') {
  const timeline = new Timeline();
  return { timeline, tools: new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(timeline, wait)], ...(approval && { approval }) }) };
}

const oneRead = (messages: readonly MessageParam[]) =>
  messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('Pronto.')) : turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }));

/** A client whose requests wait for `gate` (rejecting if the run aborts), then answer `script`. */
function gatedClient(gate: Promise<unknown>, script: (messages: readonly MessageParam[]) => ScriptedReply): MessagesClient {
  const inner = replayClient(script);
  return {
    messages: {
      create: async (body: never, options?: { signal?: AbortSignal }) => {
        await new Promise((resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new Error('Request was aborted.')), { once: true });
          void gate.then(resolve);
        });
        return inner.messages.create(body, options as never);
      },
    },
  } as unknown as MessagesClient;
}

/** What the store was asked after the first failed renewal. */
const afterFailedRenew = (calls: readonly string[]) => calls.slice(calls.indexOf('renew') + 1);

describe('the heartbeat', () => {
  test.each([0, Number.NaN, -1])('a store reporting claimLeaseMs %p gets the default lease, not a renewal every millisecond', async (lease) => {
    const store = faultyStore(new InMemoryRunStore(), () => undefined);
    const odd: RunStore = { ...store, claimLeaseMs: lease };

    const run = await runToolLoop({ client: replayClient(oneRead), model: MODEL, prompt: 'X1?', tools: shop(sleep(60)).tools, store: odd });

    expect(run.stopReason).toBe('end_turn');
    expect(store.calls.filter((c) => c === 'renew')).toEqual([]);
  });

  test('renews every third of the lease, not every millisecond', async () => {
    const store = faultyStore(new InMemoryRunStore({ claimLeaseMs: 300 }), () => undefined);

    await runToolLoop({ client: replayClient(oneRead), model: MODEL, prompt: 'X1?', tools: shop(sleep(250)).tools, store });

    expect(store.calls.filter((c) => c === 'renew').length).toBeLessThanOrEqual(5);
  });

  // A process whose other work is done (a CLI, a worker draining its queue) must be free to exit
  // while a run is still held: the claim then lapses and another process resumes the run.
  test('a held run\'s heartbeat does not keep the process alive on its own', async () => {
    const real = global.setInterval;
    const intervals: NodeJS.Timeout[] = [];
    const spy = jest.spyOn(global, 'setInterval').mockImplementation(((...args: Parameters<typeof setInterval>) => {
      const timer = real(...args);
      intervals.push(timer);
      return timer;
    }) as typeof setInterval);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const run = runToolLoop({ client: gatedClient(gate, oneRead), model: MODEL, prompt: 'X1?', tools: shop().tools, store: new InMemoryRunStore() });
    try {
      await after(20);
      // Held, waiting on its request: the heartbeat is running.
      expect(intervals).toHaveLength(1);
      expect(intervals[0].hasRef()).toBe(false);
    } finally {
      spy.mockRestore();
      open();
    }
    await expect(run).resolves.toMatchObject({ stopReason: 'end_turn' });
  });

  test('stops once the run is paused for a person: the paused run is not renewed', async () => {
    const store = faultyStore(new InMemoryRunStore({ claimLeaseMs: 90 }), () => undefined);
    const script = () => turn('tool_use', toolUse('toolu_01', 'reservar', { sku: 'X1' }));

    const run = await runToolLoop({ client: replayClient(script), model: MODEL, prompt: 'Reserve X1.', tools: shop(undefined, 'writes').tools, store });
    const calls = store.calls.length;
    await after(150);

    expect(run.stopReason).toBe('approval_required');
    expect(store.calls.slice(calls)).toEqual([]);
  });
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Runs once against a fresh store and returns only a weak reference to that store. */
async function storeOfOneRun(approval: 'writes' | undefined): Promise<WeakRef<object>> {
  const store = new InMemoryRunStore();
  const script = (messages: readonly MessageParam[]) =>
    messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('Pronto.')) : turn('tool_use', toolUse('toolu_01', approval ? 'reservar' : 'ler_estoque', { sku: 'X1' }));
  const run = await runToolLoop({ client: replayClient(script), model: MODEL, prompt: 'X1', tools: shop(undefined, approval).tools, store });
  expect(run.stopReason).toBe(approval ? 'approval_required' : 'end_turn');
  return new WeakRef(store);
}

test('a finished or paused run keeps nothing alive: its store can be collected once the app drops it', async () => {
  const refs = [await storeOfOneRun(undefined), await storeOfOneRun('writes')];
  for (let i = 0; i < 3; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    gc();
  }
  expect(refs.map((ref) => ref.deref() === undefined)).toEqual([true, true]);
});

describe('a lost claim', () => {
  test('a renewal that fails stops the heartbeat and the run: no renewal, save or release after it', async () => {
    const store = faultyStore(new InMemoryRunStore({ claimLeaseMs: 90 }), (op, n) => (op === 'renew' && n === 1 ? connectionLost() : undefined));

    const error = await runToolLoop({ client: replayClient(oneRead), model: MODEL, prompt: 'X1?', tools: shop(sleep(200)).tools, store }).catch((e: unknown) => e);
    await after(150);

    expect(error).toBeInstanceOf(RunStoreError);
    expect(error).toMatchObject({ problem: 'claim_lost', operation: 'renew' });
    expect(afterFailedRenew(store.calls).filter((c) => c !== 'recordResult')).toEqual([]);
  });

  test('lost during a request: the batch that comes back is not saved over the run', async () => {
    let renewFailed!: () => void;
    const failed = new Promise<void>((resolve) => (renewFailed = resolve));
    const fault: Fault = (op, n) => {
      if (op !== 'renew' || n !== 1) return undefined;
      setImmediate(renewFailed);
      return connectionLost();
    };
    const store = faultyStore(new InMemoryRunStore({ claimLeaseMs: 90 }), fault);

    const error = await runToolLoop({ client: gatedClient(failed, oneRead), model: MODEL, prompt: 'X1?', tools: shop().tools, store }).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'RunStoreError', problem: 'claim_lost' });
    expect(afterFailedRenew(store.calls)).not.toContain('save');
  });

  test('lost, then the run aborted: it rejects with the lost claim, not as a release the store refused', async () => {
    const controller = new AbortController();
    const fault: Fault = (op, n) => {
      if (op !== 'renew' || n !== 1) return undefined;
      setImmediate(() => controller.abort());
      return connectionLost();
    };
    const store = faultyStore(new InMemoryRunStore({ claimLeaseMs: 90 }), fault);

    const error = await runToolLoop({ client: gatedClient(new Promise(() => undefined), oneRead), model: MODEL, prompt: 'X1?', tools: shop().tools, store, signal: controller.signal }).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'RunStoreError', problem: 'claim_lost', operation: 'renew' });
    expect(afterFailedRenew(store.calls)).toEqual([]);
  });

  test('a request that fails and a release the store refuses: the heartbeat stops all the same, the claim is left to lapse', async () => {
    const store = faultyStore(new InMemoryRunStore({ claimLeaseMs: 90 }), (op) => (op === 'release' ? connectionLost() : undefined));
    const client = { messages: { create: async () => Promise.reject(new Error('Overloaded')) } } as unknown as MessagesClient;

    const error = await runToolLoop({ client, model: MODEL, prompt: 'X1?', tools: shop().tools, store }).catch((e: unknown) => e);
    const calls = store.calls.length;
    await after(150);

    expect(error).toMatchObject({ name: 'ToolLoopError' });
    expect(store.calls).toContain('release');
    expect(store.calls.slice(calls)).toEqual([]);
  });

  test('a save refused at its revision (RunConflictError) is a lost claim, not a store failure', async () => {
    const store = faultyStore(new InMemoryRunStore(), (op, n) => (op === 'save' && n === 1 ? RunConflictError.revision('run', 1, 2) : undefined));

    const error = await runToolLoop({ client: replayClient(oneRead), model: MODEL, prompt: 'X1?', tools: shop().tools, store }).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'RunStoreError', problem: 'claim_lost', operation: 'save' });
    expect(store.calls.slice(store.calls.indexOf('save') + 1)).not.toContain('release');
  });
});
