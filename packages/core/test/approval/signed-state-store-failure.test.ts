import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { InMemoryRunStore, RunStateError, RunStoreError, resumeToolLoop, runToolLoop } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { connectionLost, failOnce, faultyStore } from './fixtures/faulty-store';
import { refundTools, replayClient } from './fixtures/refunds';

// A signed state (one that travelled with the client) is taken into the store before it is
// resumed. A store that fails there ends the resume as every store failure does: a RunStoreError
// naming the run, never the driver's raw error.

const MODEL = 'claude-haiku-5-5';
const SECRET = randomBytes(32);
const batch = turn('tool_use', toolUse('toolu_refund', 'refund', { order: 'A-1001', amount: 50 }));
const script = (messages: readonly MessageParam[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('done')) : batch);

describe('a signed state resumed on a store that fails', () => {
  it('rejects with a RunStoreError naming the run when the store fails to take the state in', async () => {
    const { tools, provider } = refundTools('writes');
    const paused = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store: new InMemoryRunStore(), secret: SECRET, prompt: 'x' });
    const down = faultyStore(new InMemoryRunStore(), (op) => (op === 'create' ? connectionLost() : undefined));

    const error = await resumeToolLoop({
      client: replayClient(script),
      model: MODEL,
      tools,
      store: down,
      secret: SECRET,
      state: paused.signedState!,
      decisions: { toolu_refund: { approve: true } },
    }).catch((e: unknown) => e);

    expect(provider.ran).toEqual([]);
    expect(error).toBeInstanceOf(RunStoreError);
    expect(error).toMatchObject({ runId: paused.runId, problem: 'store_failed', operation: 'create', released: false, unjournaled: [] });
    expect((error as Error).message).toContain('Connection terminated unexpectedly');
    expect((error as Error).message).toContain('resume with the same state again once the store answers');
    expect((error as Error).cause).toMatchObject({ code: 'ECONNRESET' });
  });

  it('resumed with the same state once the store answers, the write runs once', async () => {
    const { tools, provider } = refundTools('writes');
    const paused = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store: new InMemoryRunStore(), secret: SECRET, prompt: 'x' });
    const flaky = faultyStore(new InMemoryRunStore(), failOnce('create'));
    const resume = () =>
      resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: flaky, secret: SECRET, state: paused.signedState!, decisions: { toolu_refund: { approve: true } } });

    await expect(resume()).rejects.toBeInstanceOf(RunStoreError);
    const done = await resume();

    expect(done.stopReason).toBe('end_turn');
    expect(provider.ran).toEqual(['toolu_refund']);
  });

  it('resumed again once the store has it, the state is read from the store: the finished run is refused and nothing runs twice', async () => {
    const { tools, provider } = refundTools('writes');
    const paused = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store: new InMemoryRunStore(), secret: SECRET, prompt: 'x' });
    const store = new InMemoryRunStore();
    const resume = () => resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, secret: SECRET, state: paused.signedState!, decisions: { toolu_refund: { approve: true } } });

    expect((await resume()).stopReason).toBe('end_turn');
    await expect(resume()).rejects.toMatchObject({ name: 'DecisionError', problem: 'finished_run', runId: paused.runId });
    expect(provider.ran).toEqual(['toolu_refund']);
  });

  it('a store that refuses the state as malformed answers with its own RunStateError, not a store failure', async () => {
    const { tools, provider } = refundTools('writes');
    const paused = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store: new InMemoryRunStore(), secret: SECRET, prompt: 'x' });
    const refusal = new RunStateError('malformed', 'Run state is not valid: messages[0] is too large for this store.');
    const strict = faultyStore(new InMemoryRunStore(), (op) => (op === 'create' ? refusal : undefined));

    const error = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: strict, secret: SECRET, state: paused.signedState!, decisions: { toolu_refund: { approve: true } } }).catch(
      (e: unknown) => e,
    );

    expect(error).toBe(refusal);
    expect(provider.ran).toEqual([]);
  });
});
