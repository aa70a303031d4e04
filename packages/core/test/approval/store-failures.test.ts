import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import {
  InMemoryRunStore,
  RunConflictError,
  RunStoreError,
  ToolLoopError,
  resumeToolLoop,
  runToolLoop,
  streamToolLoop,
  type RunStore,
} from '@toolwright/core';
import { apiError, text, toolUse, turn } from '@toolwright/core/testing';
import { MODEL, closeServers, expectValidTranscript, scripted } from '../loop/scripted-client';
import { answersById, refundTools, resultText, type Refunds } from './fixtures/refunds';
import { connectionLost, failOnce, faultyStore, type Fault } from './fixtures/faulty-store';

// The store's failures are part of the loop's contract: a failing store call ends the run with a
// RunStoreError naming the run (never an unhandled rejection, never a promise left pending), the
// run is released when the process can still say so, and a resume carries it on without running
// a completed call again. Each test goes through the real SDK client and the scripted server.

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  // A rejection nobody handled is reported on a later turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 20));
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
  await closeServers();
});

const lookUp = toolUse('toolu_look', 'look_up', { order: 'A-1001' });
const refund = toolUse('toolu_refund', 'refund', { order: 'A-1001', amount: 50 });
const note = toolUse('toolu_note', 'note', { order: 'A-1001' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The provider's `method` waits for `until` (milliseconds, or a promise) before it runs; `started` resolves as it is called. */
function slow(provider: Refunds, method: 'refund' | 'note', until: number | Promise<unknown>): { started: Promise<void> } {
  let started!: () => void;
  const original = provider[method].bind(provider) as (...args: unknown[]) => Promise<unknown>;
  (provider as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    started();
    await (typeof until === 'number' ? sleep(until) : until);
    return original(...args);
  };
  return { started: new Promise((resolve) => (started = resolve)) };
}

function setUp(fault: Fault, policy: 'none' | 'writes' = 'none', inner: RunStore = new InMemoryRunStore()) {
  const store = faultyStore(inner, fault);
  const { tools, provider } = refundTools(policy);
  return { store, inner, tools, provider };
}

describe('a failing recordResult', () => {
  it('while an eager read is journaled: rejects with RunStoreError, runs no write after it, releases the run; a resume runs the write once', async () => {
    const { server, client } = await scripted([turn('tool_use', lookUp, refund), turn('end_turn', text('refunded'))]);
    const { store, tools, provider } = setUp(failOnce('recordResult'));

    const error = await streamToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' }).result.catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RunStoreError);
    const runId = store.created[0];
    expect(error).toMatchObject({ problem: 'store_failed', operation: 'recordResult', runId, released: true, unjournaled: [] });
    expect((error as Error).message).toContain(`resumeToolLoop({ runId: "${runId}", decisions: {} })`);
    expect((error as Error).cause).toMatchObject({ code: 'ECONNRESET' });
    expect(provider.ran).toEqual(['toolu_look']);

    // Released: the retry at once is not told the run is being resumed elsewhere.
    const done = await resumeToolLoop({ client, model: MODEL, tools, store, runId, decisions: {} });
    expect(done).toMatchObject({ stopReason: 'end_turn', text: 'refunded', runId });
    expect(provider.ran).toEqual(['toolu_look', 'toolu_refund']);
    expect(answersById(done.messages).get('toolu_look')).toHaveLength(1);
    expectValidTranscript(done.messages);
    expect(server.requests).toHaveLength(2);
  });

  it('of a write that ran, on every retry: the error names the call a resume will run again', async () => {
    const { client } = await scripted([turn('tool_use', refund, note), turn('end_turn', text('refunded'))]);
    const down: Fault = (op) => (op === 'recordResult' ? connectionLost() : undefined);
    const { store, tools, provider } = setUp(down);

    const error = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' }).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'RunStoreError', operation: 'recordResult', unjournaled: ['toolu_refund'], released: false });
    expect((error as Error).message).toMatch(/"toolu_refund" could not be journaled, so a resume runs those calls again with the same ctx\.toolUseId/);
    // The write after the unjournaled one does not start.
    expect(provider.ran).toEqual(['toolu_refund']);
  });
});

describe('a call journaled once', () => {
  const downAfterFirst: Fault = (op, n) => (op === 'recordResult' && n >= 2 ? connectionLost() : undefined);

  it('is sent to the store once: a turn whose results were journaled as they completed needs no other journal write', async () => {
    const { client } = await scripted([turn('tool_use', refund), turn('end_turn', text('refunded'))]);
    const { store, inner, tools, provider } = setUp(downAfterFirst);

    const done = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' });

    expect(done.stopReason).toBe('end_turn');
    expect(store.calls.filter((op) => op === 'recordResult')).toHaveLength(1);
    expect([...(await inner.journaledResults(store.created[0])).keys()]).toEqual(['toolu_refund']);
    expect(provider.ran).toEqual(['toolu_refund']);
  });

  it('is never named unjournaled when a later journal write fails: only the call whose result the store did not take is', async () => {
    const { client } = await scripted([turn('tool_use', refund, note), turn('end_turn', text('refunded'))]);
    const { store, inner, tools, provider } = setUp(downAfterFirst);

    const error = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' }).catch((e: unknown) => e);

    expect(provider.ran).toEqual(['toolu_refund', 'toolu_note']);
    expect([...(await inner.journaledResults(store.created[0])).keys()]).toEqual(['toolu_refund']);
    expect(error).toMatchObject({ name: 'RunStoreError', operation: 'recordResult', unjournaled: ['toolu_note'] });
    expect((error as Error).message).not.toContain('"toolu_refund"');
  });
});

describe('a resume that fails after recording its decisions', () => {
  it('is carried on by the retry the error advises (decisions: {}), under the decisions it recorded', async () => {
    const { client } = await scripted([turn('tool_use', refund, note), turn('end_turn', text('done'))]);
    const { store: inner, tools, provider } = setUp(() => undefined, 'writes');
    const paused = await runToolLoop({ client, model: MODEL, tools, store: inner, prompt: 'refund A-1001' });
    expect(paused.stopReason).toBe('approval_required');

    // The approved refund runs; its journal write is lost with the connection.
    const failing = faultyStore(inner, failOnce('recordResult'));
    const error = await resumeToolLoop({ client, model: MODEL, tools, store: failing, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } }).catch(
      (e: unknown) => e,
    );
    // Journaled on the release's retry, so named nowhere as unjournaled.
    expect(error).toMatchObject({ name: 'RunStoreError', released: true, unjournaled: [] });
    const advice = `resumeToolLoop({ runId: ${JSON.stringify(paused.runId)}, decisions: {} })`;
    expect((error as Error).message).toContain(advice);

    const done = await resumeToolLoop({ client, model: MODEL, tools, store: inner, runId: paused.runId!, decisions: {} });
    expect(done.stopReason).toBe('end_turn');
    expect(provider.ran).toEqual(['toolu_refund', 'toolu_note']);
    expectValidTranscript(done.messages);
  });
});

describe('a failing save', () => {
  it('of the checkpoint before a batch: nothing of the batch but its eager read runs; a resume at once finishes it', async () => {
    const { client } = await scripted([turn('tool_use', lookUp, refund), turn('tool_use', lookUp, refund), turn('end_turn', text('refunded'))]);
    const { store, tools, provider } = setUp(failOnce('save'));

    const error = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' }).catch((e: unknown) => e);

    const runId = store.created[0];
    expect(error).toBeInstanceOf(RunStoreError);
    expect(error).toMatchObject({ operation: 'save', runId, released: true });
    expect(provider.ran.filter((id) => id === 'toolu_refund')).toEqual([]);

    const done = await resumeToolLoop({ client, model: MODEL, tools, store, runId, decisions: {} });
    expect(done.text).toBe('refunded');
    expect(provider.ran.filter((id) => id === 'toolu_refund')).toEqual(['toolu_refund']);
    expectValidTranscript(done.messages);
  });

  it('after an approved write ran: the write’s result is kept, and the resume does not run it again', async () => {
    const { client } = await scripted([turn('tool_use', refund), turn('end_turn', text('refunded'))]);
    const { store, inner, tools, provider } = setUp(() => undefined, 'writes');
    const paused = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' });
    expect(paused.stopReason).toBe('approval_required');

    // The resume claims, records the decision (its first save), runs the refund, and its checkpoint (its second) fails.
    const failing = faultyStore(inner, failOnce('save', 2));
    const error = await resumeToolLoop({ client, model: MODEL, tools, store: failing, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'RunStoreError', operation: 'save', runId: paused.runId, released: true, unjournaled: [] });
    expect(provider.ran).toEqual(['toolu_refund']);

    const done = await resumeToolLoop({ client, model: MODEL, tools, store: inner, runId: paused.runId!, decisions: {} });
    expect(done.text).toBe('refunded');
    expect(provider.ran).toEqual(['toolu_refund']);
    expect(resultText(answersById(done.messages).get('toolu_refund')![0])).toContain('"idempotencyKey":"toolu_refund"');
  });
});

describe('a failing claim', () => {
  it('rejects the resume with RunStoreError before anything runs; the retry claims it', async () => {
    const { client } = await scripted([turn('tool_use', refund), turn('end_turn', text('refunded'))]);
    const { store, inner, tools, provider } = setUp(failOnce('claim'), 'writes');
    const paused = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' });
    const decisions = { toolu_refund: { approve: true } };

    const error = await resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RunStoreError', operation: 'claim', runId: paused.runId, released: false });
    expect((error as Error).message).toMatch(/Nothing ran\. Try the resume again/);
    expect(provider.ran).toEqual([]);

    const done = await resumeToolLoop({ client, model: MODEL, tools, store: inner, runId: paused.runId!, decisions });
    expect(done.text).toBe('refunded');
    expect(provider.ran).toEqual(['toolu_refund']);
  });

  it('a failing journal read after the claim releases the claim it took', async () => {
    const { client } = await scripted([turn('tool_use', refund), turn('end_turn', text('refunded'))]);
    const { store, inner, tools, provider } = setUp(failOnce('journaledResults'), 'writes');
    const paused = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' });
    const decisions = { toolu_refund: { approve: true } };

    await expect(resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions })).rejects.toMatchObject({
      name: 'RunStoreError',
      operation: 'journaledResults',
      released: true,
    });
    const done = await resumeToolLoop({ client, model: MODEL, tools, store: inner, runId: paused.runId!, decisions });
    expect(done.text).toBe('refunded');
    expect(provider.ran).toEqual(['toolu_refund']);
  });
});

describe('a failure of the Messages API during a stored run', () => {
  it('releases the run with what it did: an immediate retry resumes it and the approved write does not run again', async () => {
    const { server, client } = await scripted([turn('tool_use', refund), apiError(500), turn('end_turn', text('refunded'))], 0);
    const store = new InMemoryRunStore();
    const { tools, provider } = refundTools('writes');
    const paused = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' });

    const error = await resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolLoopError);
    expect(error).toMatchObject({ runId: paused.runId });
    expect((error as Error).message).toMatch(/request 2 failed: .*The run is saved and released: resumeToolLoop\(\{ runId: ".+", decisions: \{\} \}\) carries it on now/);

    // Not "being resumed by another request" for the whole lease: the run was released.
    const done = await resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: {} });
    expect(done.text).toBe('refunded');
    expect(provider.ran).toEqual(['toolu_refund']);
    expectValidTranscript(done.messages);
    expect(server.requests.map((r) => r.status)).toEqual([200, 500, 200]);
  });
});

describe('the claim’s heartbeat', () => {
  it('renews the claim while a write outlasts the lease, so a second instance cannot take the run over', async () => {
    const { client } = await scripted([turn('tool_use', refund), turn('end_turn', text('refunded'))]);
    const { store, tools, provider } = setUp(() => undefined, 'none', new InMemoryRunStore({ claimLeaseMs: 600 }));
    const { started } = slow(provider, 'refund', 2_500);

    const run = runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' });
    await started;
    await sleep(1_500);
    // Without renewals the claim (taken by the save before the batch) would have lapsed by now.
    await expect(store.claim(store.created[0])).rejects.toMatchObject({ name: 'RunClaimError', problem: 'claimed' });
    expect((await run).text).toBe('refunded');
    expect(provider.ran).toEqual(['toolu_refund']);
    expect(store.calls).toContain('renew');
  });

  it('a lost renewal stops the run before its next call and its next request, and leaves the claim alone', async () => {
    const { server, client } = await scripted([turn('tool_use', refund, note), turn('end_turn', text('refunded'))]);
    // Another process takes the run over while the refund runs: the next renewal is refused.
    let refunding = false;
    let refused!: () => void;
    const renewalRefused = new Promise<void>((resolve) => (refused = resolve));
    const takenOver: Fault = (op) => {
      if (op !== 'renew' || !refunding) return undefined;
      setImmediate(refused);
      return RunConflictError.revision('run', 3, 4);
    };
    const { store, tools, provider } = setUp(takenOver, 'none', new InMemoryRunStore({ claimLeaseMs: 300 }));
    const { started } = slow(provider, 'refund', renewalRefused);
    void started.then(() => (refunding = true));

    const error = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RunStoreError);
    expect(error).toMatchObject({ problem: 'claim_lost', operation: 'renew', runId: store.created[0], released: false });
    expect((error as Error).message).toMatch(/no longer holds its claim .*Do not resume it from here/);
    expect(provider.ran).toEqual(['toolu_refund']);
    expect(server.requests).toHaveLength(1);
    expect(store.calls).not.toContain('release');
  });
});

describe('options checked when given', () => {
  it('a secret shorter than 32 bytes fails before any request and before the run is saved', async () => {
    const { server, client } = await scripted([turn('tool_use', refund)]);
    const { store, tools } = setUp(() => undefined, 'writes');

    await expect(runToolLoop({ client, model: MODEL, tools, store, secret: 'too short', prompt: 'refund A-1001' })).rejects.toThrow(
      'runToolLoop: secret is 9 bytes; use at least 32 random bytes',
    );
    await expect(resumeToolLoop({ client, model: MODEL, tools, store, secret: new Uint8Array(31), runId: 'run_1', decisions: {} })).rejects.toThrow(
      'resumeToolLoop: secret is 31 bytes',
    );
    expect(server.requests).toHaveLength(0);
    expect(store.calls).toEqual([]);
    await expect(runToolLoop({ client, model: MODEL, tools, store, secret: randomBytes(32), prompt: 'refund A-1001' })).resolves.toMatchObject({
      stopReason: 'approval_required',
    });
  });
});

describe('text no store can hold', () => {
  it('refuses a tool_use whose input holds NUL or a lone surrogate without running it', async () => {
    const nul = toolUse('toolu_nul', 'refund', { order: 'A-1001\u0000', amount: 50 });
    const lone = toolUse('toolu_lone', 'look_up', { ['order\ud800']: 'A-1001' });
    const { client } = await scripted([turn('tool_use', nul, lone), turn('end_turn', text('no'))]);
    const store = new InMemoryRunStore();
    const { tools, provider } = refundTools('none');

    const run = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' });

    expect(provider.ran).toEqual([]);
    for (const id of ['toolu_nul', 'toolu_lone']) {
      expect(resultText(answersById(run.messages).get(id)![0])).toBe('Not executed: the input holds a NUL character or invalid UTF-16 (a lone surrogate). Send plain text.');
    }
    expectValidTranscript(run.messages);
  });

  it('refuses a response whose tool_use id holds a NUL before anything runs', async () => {
    const { client } = await scripted([turn('tool_use', toolUse('toolu_\u0000', 'refund', { order: 'A-1001', amount: 5 }))]);
    const store = new InMemoryRunStore();
    const { tools, provider } = refundTools('none');
    const error = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolLoopError);
    expect((error as Error).message).toContain('is a tool_use whose id holds a NUL character (U+0000)');
    expect(provider.ran).toEqual([]);
  });

  it('answers a resume of a run id with NUL or a lone surrogate as an unknown run, and an owner with one as a bad option', async () => {
    const { client } = await scripted([]);
    const { store, tools } = setUp(() => undefined);
    for (const runId of ['run\u0000x', 'run\udc00']) {
      await expect(resumeToolLoop({ client, model: MODEL, tools, store, runId, decisions: {} })).rejects.toMatchObject({ name: 'DecisionError', problem: 'unknown_run' });
    }
    // From JavaScript: an id that is no string is a bad option, said as one.
    for (const runId of [123, undefined, null]) {
      await expect(resumeToolLoop({ client, model: MODEL, tools, store, runId: runId as never, decisions: {} })).rejects.toThrow(
        new TypeError(`resumeToolLoop: runId must be the string runToolLoop returned as runId, got ${runId === 123 ? 'a number' : String(runId)}.`),
      );
    }
    expect(store.calls).toEqual([]);
    await expect(runToolLoop({ client, model: MODEL, tools, store, owner: 'C-\u0000', prompt: 'x' })).rejects.toThrow(
      /owner must be a non-empty string .* without NUL or lone surrogates; it holds a NUL character/,
    );
  });
});

describe('an abort', () => {
  it('releases the run, so an immediate retry resumes it; a release the store keeps refusing rejects with RunStoreError naming the run', async () => {
    const refusing: Fault = (op) => (op === 'release' ? connectionLost() : undefined);
    for (const [name, fault] of [['healthy', () => undefined], ['once', failOnce('release')], ['always', refusing]] as const) {
      const { client } = await scripted([turn('tool_use', lookUp), turn('end_turn', text('found'))]);
      const { store, tools } = setUp(fault);
      const stream = streamToolLoop({ client, model: MODEL, tools, store, prompt: 'look up A-1001' });
      stream.abort();
      const outcome = await stream.result.catch((e: unknown) => e);
      const runId = store.created[0];
      if (name === 'always') {
        expect(outcome).toBeInstanceOf(RunStoreError);
        expect(outcome).toMatchObject({ problem: 'store_failed', operation: 'release', runId, released: false });
        expect((outcome as Error).message).toContain('until the lease lapses');
        // The store's own error is the cause named, not a generic refusal.
        expect((outcome as Error).message).toContain('its store failed on release (Connection terminated unexpectedly)');
        continue;
      }
      // A release that failed once is tried again by the loop's failure path, and then holds.
      if (name === 'once') expect(outcome).toMatchObject({ operation: 'release', runId, released: true });
      else expect(outcome).toMatchObject({ stopReason: 'aborted', runId });
      expect((await store.load(runId))?.state.status).toBe('running');
      const done = await resumeToolLoop({ client, model: MODEL, tools, store, runId, decisions: {} });
      expect(done).toMatchObject({ stopReason: 'end_turn', runId });
      expectValidTranscript(done.messages);
    }
  });
});
