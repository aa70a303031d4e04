import 'reflect-metadata';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { InMemoryRunStore, RunConflictError, RunStateError, resumeToolLoop, runToolLoop, type ApprovalDecisions, type RunStore } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { refundTools, replayClient } from './fixtures/refunds';

// Whatever store a run is kept in, the loop uses only answers about the run it asked for: a custom
// store with a bug (or a database row copied under the wrong id) that answers with another run's
// state, or with another call's result under a call's key, is refused with a RunStateError naming
// the run (and the call), before anything of it runs.

const MODEL = 'claude-haiku-5-5';
const script = (id: string) => (messages: readonly MessageParam[]) =>
  messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('done')) : turn('tool_use', toolUse(id, 'refund', { order: 'A-1001', amount: 50 }), toolUse(`${id}_b`, 'refund', { order: 'A-1001', amount: 60 }));

/** `inner`, with some of its answers replaced by `lies`. */
function lying(inner: InMemoryRunStore, lies: Partial<RunStore>): RunStore {
  return {
    claimLeaseMs: inner.claimLeaseMs,
    create: (s) => inner.create(s),
    load: (id) => inner.load(id),
    save: (s, r) => inner.save(s, r),
    claim: (id, o) => inner.claim(id, o),
    renew: (id, r) => inner.renew(id, r),
    release: (s, r) => inner.release(s, r),
    recordResult: (id, r) => inner.recordResult(id, r),
    journaledResult: (id, t) => inner.journaledResult(id, t),
    journaledResults: (id) => inner.journaledResults(id),
    ...lies,
  };
}

async function twoPausedRuns(store: InMemoryRunStore) {
  const { tools } = refundTools('writes');
  const a = await runToolLoop({ client: replayClient(script('toolu_a')), model: MODEL, tools, store, prompt: 'refund' });
  const b = await runToolLoop({ client: replayClient(script('toolu_b')), model: MODEL, tools, store, prompt: 'refund' });
  return { a: a.runId!, b: b.runId! };
}

describe('a store that answers about another run', () => {
  it.each(['load', 'claim'] as const)('a resume of A whose store answers %s with run B refuses, runs nothing of B and journals nothing', async (op) => {
    const inner = new InMemoryRunStore();
    const { a, b } = await twoPausedRuns(inner);
    const store = lying(inner, op === 'load' ? { load: () => inner.load(b) } : { claim: () => inner.claim(b) });
    const { tools, provider } = refundTools('writes');
    // Decisions that fit whichever run the store answers with.
    const decisions: ApprovalDecisions = op === 'load' ? { toolu_b: { approve: true }, toolu_b_b: { approve: true } } : { toolu_a: { approve: true }, toolu_a_b: { approve: true } };

    const error = await resumeToolLoop({ client: replayClient(script('toolu_b')), model: MODEL, tools, store, runId: a, decisions }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RunStateError);
    expect(error).toMatchObject({ problem: 'malformed', message: expect.stringContaining(`${JSON.stringify(a)}: the store answered ${op} with the state of run ${JSON.stringify(b)}`) });
    expect(provider.ran).toEqual([]);
    expect([...(await inner.journaledResults(a)).keys(), ...(await inner.journaledResults(b)).keys()]).toEqual([]);
  });
});

describe('a store that answers with no run at all', () => {
  it('a claim answered without a state is refused as the store’s bug, naming no run, and nothing runs', async () => {
    const inner = new InMemoryRunStore();
    const { a } = await twoPausedRuns(inner);
    const store = lying(inner, { claim: async (id, o) => ({ revision: (await inner.claim(id, o)).revision }) as never });
    const { tools, provider } = refundTools('writes');

    const error = await resumeApprovingBoth(store, a, tools);

    expect(error).toBeInstanceOf(RunStateError);
    expect((error as Error).message).toBe(
      `Run ${JSON.stringify(a)}: the store answered claim with the state of no run, not this run's. ` +
        'Nothing of it was run. The store holds a wrong row for this run (copied or restored under the wrong id) or has a bug: fix it before resuming.',
    );
    expect(provider.ran).toEqual([]);
  });
});

describe('a store that answers with a state it never checked', () => {
  it.each(['load', 'claim'] as const)('a %s answered with a null content block is refused, naming the run and the block, and the claim is not kept alive', async (op) => {
    const inner = new InMemoryRunStore({ claimLeaseMs: 200 });
    const { a } = await twoPausedRuns(inner);
    const broken = <T extends { state: { messages: unknown[] } }>(stored: T): T => ({ ...stored, state: { ...stored.state, messages: [{ role: 'user', content: [null] }, ...stored.state.messages.slice(1)] } });
    let renewals = 0;
    const store = lying(inner, {
      ...(op === 'load' ? { load: async (id) => broken((await inner.load(id))!) } : { claim: async (id, o) => broken(await inner.claim(id, o)) }),
      renew: (id, r) => {
        renewals += 1;
        return inner.renew(id, r);
      },
    });
    const { tools, provider } = refundTools('writes');

    const error = await resumeApprovingBoth(store, a, tools);

    expect(error).toBeInstanceOf(RunStateError);
    expect((error as Error).message).toBe(
      `Run ${JSON.stringify(a)}: the store answered ${op} with a state that is not valid (messages[0].content[0] must be a content block (an object with a string type)). ` +
        'Nothing of it was run. Fix or remove that row of the store before resuming.',
    );
    expect(provider.ran).toEqual([]);
    // No heartbeat keeps a claim of it: past the lease, the run can be claimed.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(renewals).toBe(0);
    await expect(inner.claim(a)).resolves.toMatchObject({ state: { runId: a } });
  });
});

describe('a store that answers with a state of another version', () => {
  it('is refused as the version it is (what to do differs from a malformed row), and nothing runs', async () => {
    const inner = new InMemoryRunStore();
    const { a } = await twoPausedRuns(inner);
    const store = lying(inner, { load: async (id) => ({ ...(await inner.load(id))!, state: { ...(await inner.load(id))!.state, version: 99 } }) as never });
    const { tools, provider } = refundTools('writes');

    const error = await resumeApprovingBoth(store, a, tools);

    expect(error).toBeInstanceOf(RunStateError);
    expect(error).toMatchObject({ problem: 'version', message: expect.stringContaining('Run state version 99 is not supported') });
    expect(provider.ran).toEqual([]);
  });
});

describe('a run that moves between the resume’s load and its claim', () => {
  it('is refused at the revision its decisions were checked against, and nothing runs', async () => {
    const inner = new InMemoryRunStore();
    const { a } = await twoPausedRuns(inner);
    // Another process claims and releases the run right after this resume has read it.
    const store = lying(inner, {
      load: async (id) => {
        const loaded = await inner.load(id);
        const held = await inner.claim(id);
        await inner.release(held.state, held.revision);
        return loaded;
      },
    });
    const { tools, provider } = refundTools('writes');

    const error = await resumeApprovingBoth(store, a, tools);

    expect(error).toBeInstanceOf(RunConflictError);
    expect(error).toMatchObject({ problem: 'revision' });
    expect(provider.ran).toEqual([]);
  });
});

/** What a resume of `runId` (run A) approving both its refunds rejects with. */
function resumeApprovingBoth(store: RunStore, runId: string, tools: ReturnType<typeof refundTools>['tools']): Promise<unknown> {
  const decisions = { toolu_a: { approve: true }, toolu_a_b: { approve: true } };
  return resumeToolLoop({ client: replayClient(script('toolu_a')), model: MODEL, tools, store, runId, decisions }).catch((e: unknown) => e);
}

describe('a store that answers a call with another call’s result', () => {
  it('journaledResults: the journaled call does not run again and no call is answered twice', async () => {
    const inner = new InMemoryRunStore();
    const { a } = await twoPausedRuns(inner);
    await inner.recordResult(a, { type: 'tool_result', tool_use_id: 'toolu_a', content: 'refunded before' });
    const store = lying(inner, {
      journaledResults: async (id) => new Map([['toolu_a', { type: 'tool_result', tool_use_id: 'toolu_a_b', content: 'refunded before' }]]),
    });
    const { tools, provider } = refundTools('writes');

    const error = await resumeApprovingBoth(store, a, tools);

    expect(error).toBeInstanceOf(RunStateError);
    expect((error as Error).message).toContain(`Run ${JSON.stringify(a)}: the journal entry of call "toolu_a" holds the result of another call, "toolu_a_b"`);
    expect(provider.ran).toEqual([]);
  });

  it('recordResult: an answer for another call ends the run with a RunStateError, not a second answer', async () => {
    const inner = new InMemoryRunStore();
    const { a } = await twoPausedRuns(inner);
    const asked: string[] = [];
    const store = lying(inner, {
      recordResult: async (id, result) => {
        asked.push(result.tool_use_id);
        return { result: { ...result, tool_use_id: 'toolu_a_b' }, recorded: true };
      },
    });
    const { tools, provider } = refundTools('writes');

    const error = await resumeApprovingBoth(store, a, tools);

    expect(error).toBeInstanceOf(RunStateError);
    expect((error as Error).message).toContain(`Run ${JSON.stringify(a)}: the journal entry of call "toolu_a" holds the result of another call`);
    // The first write ran; its answer could not be kept, so nothing after it started.
    expect(provider.ran).toEqual(['toolu_a']);
    // The store answered: the result is not held back as unjournaled and sent again on the way out.
    expect(asked).toEqual(['toolu_a']);
  });

  it('recordResult: no answer at all (a store that forgets to return) is refused the same way, as the store’s bug it is', async () => {
    const inner = new InMemoryRunStore();
    const { a } = await twoPausedRuns(inner);
    const store = lying(inner, { recordResult: async () => undefined as never });
    const { tools, provider } = refundTools('writes');

    const error = await resumeApprovingBoth(store, a, tools);

    expect(error).toBeInstanceOf(RunStateError);
    expect((error as Error).message).toContain(`Run ${JSON.stringify(a)}: the journal entry of call "toolu_a" is not a tool_result block`);
    expect(provider.ran).toEqual(['toolu_a']);
  });
});
