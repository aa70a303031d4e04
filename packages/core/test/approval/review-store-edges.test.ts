import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { InMemoryRunStore, RunStoreError, resumeToolLoop, runToolLoop, type RunStore } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { connectionLost, faultyStore } from './fixtures/faulty-store';
import { refundTools, replayClient } from './fixtures/refunds';

// Review: store failures the loop does not turn into its typed, settled outcome.

const MODEL = 'claude-haiku-5-5';
const SECRET = randomBytes(32);
const batch = turn('tool_use', toolUse('toolu_refund', 'refund', { order: 'A-1001', amount: 50 }));
const script = (messages: readonly MessageParam[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('done')) : batch);

const settledWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise.then(
      (value) => ({ settled: 'resolved' as const, value }),
      (error: unknown) => ({ settled: 'rejected' as const, error }),
    ),
    new Promise<{ settled: 'never' }>((resolve) => setTimeout(() => resolve({ settled: 'never' }), ms).unref()),
  ]);

describe('review: a store that stops answering', () => {
  // engine.ts awaits `run.checkpoint` (durable-run.ts serially/save) with no regard for the signal,
  // and `DurableRun.interrupt` awaits `this.writes` before anything else: once a save hangs (a
  // pool with no free connection, a lock wait, a half-open TCP connection), aborting the run does
  // nothing and the loop's promise never settles.
  it('an abort settles the run even while its checkpoint save hangs', async () => {
    const { tools, provider } = refundTools('none');
    const inner = new InMemoryRunStore();
    const hanging: RunStore = Object.assign(Object.create(Object.getPrototypeOf(inner)), inner, {
      claimLeaseMs: inner.claimLeaseMs,
      save: () => new Promise<never>(() => undefined),
    });
    const controller = new AbortController();
    const run = runToolLoop({ client: replayClient(script), model: MODEL, tools, store: hanging, prompt: 'x', signal: controller.signal });
    setTimeout(() => controller.abort(), 100).unref();

    const outcome = await settledWithin(run, 2_000);

    expect(provider.ran).toEqual([]);
    // Fails today: { settled: 'never' }.
    expect(outcome.settled).not.toBe('never');
  });
});
