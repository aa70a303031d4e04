import 'reflect-metadata';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { Matches } from 'class-validator';
import {
  Ctx,
  InMemoryRunStore,
  Param,
  Tool,
  ToolContainer,
  ToolError,
  defineToolManifest,
  resumeToolLoop,
  runToolLoop,
  streamResumeToolLoop,
  type ApprovalDecisions,
  type RunStore,
  type StoredRun,
  type ToolContext,
  type ToolLoopEvent,
  type ToolStreamEvent,
} from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { answersById, replayClient } from './fixtures/refunds';

// A denied call counts as a failed write: the rest of its batch halts (DESIGN.md,
// approval-and-stores.md). A resume journals its denials before the batch runs, so a resume that
// died after that leaves the denial in the journal, and the next attempt answers the call from
// there. That answer must still halt the batch: for a denied *read* (a read tool with `approval`)
// nothing else marks the call as a failed write, and the write after it would run on recovery.

const MODEL = 'claude-haiku-5-5';
const LEASE = 1_000;

class Bank {
  ran: string[] = [];
  /** What the read answers, once approved, as its own error: any text, a denial's included. */
  revealFails: string | undefined;

  /** A read that always asks (it reveals a secret). */
  @Tool({ name: 'reveal', effect: 'read', approval: true })
  async reveal(@Param() key: string, @Ctx() ctx: ToolContext) {
    this.ran.push(ctx.toolUseId);
    if (this.revealFails !== undefined) throw new ToolError(this.revealFails);
    return `revealed ${key}`;
  }

  /** A write that needs no approval of its own. */
  @Tool({ name: 'transfer', effect: 'write' })
  async transfer(@Param() key: string, @Ctx() ctx: ToolContext) {
    this.ran.push(ctx.toolUseId);
    return `transferred ${key}`;
  }
}

class KeyInput {
  @Matches(/^[a-z-]+$/)
  key!: string;
}

const manifest = defineToolManifest(
  (['reveal', 'transfer'] as const).map((name) => ({
    provider: Bank,
    method: name,
    definition: {
      name,
      description: `${name} a key.`,
      input_schema: { type: 'object' as const, properties: { key: { type: 'string', pattern: '^[a-z-]+$' } }, required: ['key'], additionalProperties: false },
    },
    effect: name === 'reveal' ? ('read' as const) : ('write' as const),
    inputClass: KeyInput,
    parameters: [{ kind: 'param' as const, property: 'key' }, { kind: 'ctx' as const }],
  })),
);

const batch = turn('tool_use', toolUse('toolu_reveal', 'reveal', { key: 'secret' }), toolUse('toolu_transfer', 'transfer', { key: 'all' }));
const script = (messages: readonly MessageParam[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('done')) : batch);

/** The store as a process sees it that dies right after its first journal write completes. */
function diesAfterFirstJournal(store: RunStore): RunStore {
  let dead = false;
  const alive = <T>(op: () => Promise<T>) => (dead ? Promise.reject(new Error('process died')) : op());
  return {
    claimLeaseMs: store.claimLeaseMs,
    create: (s) => alive(() => store.create(s)),
    load: (id) => alive(() => store.load(id)),
    save: (s, r) => alive(() => store.save(s, r)),
    claim: (id, o) => alive(() => store.claim(id, o)),
    renew: (id, r) => alive(() => store.renew(id, r)),
    release: (s, r) => alive(() => store.release(s, r)),
    recordResult: (id, result) =>
      alive(async () => {
        const recorded = await store.recordResult(id, result);
        dead = true;
        return recorded;
      }),
    journaledResult: (id, t) => alive(() => store.journaledResult(id, t)),
    journaledResults: (id) => alive(() => store.journaledResults(id)),
  };
}

/** The store as a process sees it that dies once its resume has recorded the decisions (its first save). */
function diesAfterRecording(store: RunStore): RunStore {
  let saves = 0;
  return Object.assign(Object.create(store) as RunStore, {
    claimLeaseMs: store.claimLeaseMs,
    save: async (s: Parameters<RunStore['save']>[0], r: number) => {
      if (saves++ > 0) throw new Error('process died');
      return store.save(s, r);
    },
    recordResult: () => Promise.reject(new Error('process died')),
  });
}

/** The batch paused on the read's approval, in a store whose clock `lapse` moves past the lease. */
async function pausedOnTheRead() {
  let now = 0;
  const store = new InMemoryRunStore({ claimLeaseMs: LEASE, clock: () => now });
  const bank = new Bank();
  const tools = new ToolContainer({ manifest, providers: [bank] });
  const paused = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'x' });
  return { store, bank, tools, runId: paused.runId!, lapse: () => void (now += LEASE + 1) };
}

describe('a denied read recovered from the journal', () => {
  it('without a crash, denying the read halts the write after it (the baseline)', async () => {
    const bank = new Bank();
    const tools = new ToolContainer({ manifest, providers: [bank] });
    const store = new InMemoryRunStore();
    const paused = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'x' });
    expect(paused.pending!.map((c) => c.toolUseId)).toEqual(['toolu_reveal']);

    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_reveal: { approve: false } } });
    expect(bank.ran).toEqual([]);
    expect(answersById(done.messages).get('toolu_transfer')![0]).toMatchObject({ is_error: true, content: expect.stringMatching(/^Not executed/) });
  });

  it('the same denial, resumed again after the first resume died once its denial was journaled, still halts the write', async () => {
    const { store, bank, tools, runId, lapse } = await pausedOnTheRead();
    const decisions = { toolu_reveal: { approve: false } };

    // First resume: claims, journals the denial, and the process dies there.
    await expect(resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: diesAfterFirstJournal(store), runId, decisions })).rejects.toThrow();
    expect(bank.ran).toEqual([]);
    expect([...(await store.journaledResults(runId)).keys()]).toEqual(['toolu_reveal']);

    // Its claim lapses; the retried request carries the same decision.
    lapse();
    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId, decisions });

    expect(answersById(done.messages).get('toolu_reveal')![0]).toMatchObject({ is_error: true, content: 'Denied by the user.' });
    expect(bank.ran).toEqual([]);
    expect(answersById(done.messages).get('toolu_transfer')![0]).toMatchObject({ is_error: true, content: expect.stringMatching(/^Not executed/) });
  });

  it('a retry that approves the call still answers it with the journaled denial and halts the write', async () => {
    const { store, bank, tools, runId, lapse } = await pausedOnTheRead();

    await expect(
      resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: diesAfterFirstJournal(store), runId, decisions: { toolu_reveal: { approve: false, reason: 'not today' } } }),
    ).rejects.toThrow();
    lapse();
    const events: ToolLoopEvent[] = [];
    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId, decisions: { toolu_reveal: { approve: true } }, onEvent: (e) => events.push(e) });

    // The approval is reported, first of all, as not applied.
    expect(events[0]).toMatchObject({ type: 'decision_superseded', toolUseId: 'toolu_reveal', requested: { approve: true }, recorded: { approve: false, reason: 'not today' } });
    expect(events.filter((e) => e.type === 'decision_superseded')).toHaveLength(1);
    // The first journaled answer stands, and with it what it means for the batch.
    expect(answersById(done.messages).get('toolu_reveal')![0]).toMatchObject({ is_error: true, content: 'Denied by the user: not today' });
    expect(bank.ran).toEqual([]);
    expect(answersById(done.messages).get('toolu_transfer')![0]).toMatchObject({ is_error: true, content: expect.stringMatching(/^Not executed/) });
  });

  it('an approved read whose own error reads as a denial, recovered from the journal, halts nothing: the decision is recorded with it', async () => {
    const { store, bank, tools, runId, lapse } = await pausedOnTheRead();
    bank.revealFails = 'Denied by the user: the vault is closed';
    const decisions = { toolu_reveal: { approve: true } };

    // First resume: records the approval, runs the read (its error halts nothing) and the write,
    // journals the read's error, and dies before the write's result is journaled.
    await expect(resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: diesAfterFirstJournal(store), runId, decisions })).rejects.toThrow();
    expect(bank.ran).toEqual(['toolu_reveal', 'toolu_transfer']);
    expect([...(await store.journaledResults(runId)).keys()]).toEqual(['toolu_reveal']);
    expect((await store.load(runId))!.state.pending).toEqual([expect.objectContaining({ toolUseId: 'toolu_reveal', decision: { approve: true } })]);

    lapse();
    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId, decisions });
    expect(answersById(done.messages).get('toolu_reveal')![0]).toMatchObject({ is_error: true, content: 'Denied by the user: the vault is closed' });
    // Still halting nothing: the write, with no journaled result, runs again under its own
    // ctx.toolUseId (the idempotency key), as any unjournaled call does. Read as a denial, it would
    // be answered "Not executed" although it ran.
    expect(bank.ran).toEqual(['toolu_reveal', 'toolu_transfer', 'toolu_transfer']);
    expect(answersById(done.messages).get('toolu_transfer')![0]).toMatchObject({ content: 'transferred all' });
  });

  it('a denial recorded by an attempt that died before journaling it gives way to the retry’s decision: nothing was answered yet', async () => {
    const { store, bank, tools, runId, lapse } = await pausedOnTheRead();
    // The first resume records its denial and dies before the denial is journaled.
    await expect(resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: diesAfterRecording(store), runId, decisions: { toolu_reveal: { approve: false } } })).rejects.toThrow();
    expect((await store.load(runId))!.state.pending[0].decision).toEqual({ approve: false });
    expect(await store.journaledResults(runId)).toEqual(new Map());

    lapse();
    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId, decisions: { toolu_reveal: { approve: true } } });
    expect(bank.ran).toEqual(['toolu_reveal', 'toolu_transfer']);
    expect(answersById(done.messages).get('toolu_reveal')![0]).toMatchObject({ content: 'revealed secret' });
  });

  it('a denial journaled by a build that recorded no decisions is still told by its text, and halts the write', async () => {
    const { store, bank, tools, runId, lapse } = await pausedOnTheRead();
    const decisions = { toolu_reveal: { approve: false } };
    await expect(resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: diesAfterFirstJournal(store), runId, decisions })).rejects.toThrow();
    expect((await store.load(runId))!.state.pending[0].decision).toEqual({ approve: false });

    lapse();
    // The store as that build left it: the same run, with no decision recorded.
    const forget = (stored: StoredRun): StoredRun => ({ ...stored, state: { ...stored.state, pending: stored.state.pending.map(({ decision: _, ...call }) => call) } });
    const asLeft: RunStore = Object.assign(Object.create(store) as RunStore, {
      claimLeaseMs: store.claimLeaseMs,
      load: async (id: string) => {
        const stored = await store.load(id);
        return stored && forget(stored);
      },
      claim: async (id: string, options: Parameters<RunStore['claim']>[1]) => forget(await store.claim(id, options)),
    });
    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: asLeft, runId, decisions: { toolu_reveal: { approve: true } } });
    expect(bank.ran).toEqual([]);
    expect(answersById(done.messages).get('toolu_transfer')![0]).toMatchObject({ is_error: true, content: expect.stringMatching(/^Not executed/) });
  });
});

describe('a retry whose decision differs from the one the call was answered under', () => {
  const superseded = (events: ReadonlyArray<ToolLoopEvent | ToolStreamEvent>) =>
    events.flatMap((e) => (e.type === 'decision_superseded' ? [{ toolUseId: e.toolUseId, requested: e.requested, recorded: e.recorded }] : []));

  it('a denial that comes after the approved call ran and was journaled is reported, on the stream too', async () => {
    const { store, bank, tools, runId, lapse } = await pausedOnTheRead();
    await expect(resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: diesAfterFirstJournal(store), runId, decisions: { toolu_reveal: { approve: true } } })).rejects.toThrow();
    expect(bank.ran).toContain('toolu_reveal');
    lapse();
    const loopEvents: ToolLoopEvent[] = [];
    const stream = await streamResumeToolLoop({
      client: replayClient(script),
      model: MODEL,
      tools,
      store,
      runId,
      decisions: { toolu_reveal: { approve: false, reason: 'changed my mind' } },
      onEvent: (e) => loopEvents.push(e),
    });
    const streamed: ToolStreamEvent[] = [];
    for await (const event of stream) streamed.push(event);
    const done = await stream.result;

    const expected = [{ toolUseId: 'toolu_reveal', requested: { approve: false, reason: 'changed my mind' }, recorded: { approve: true } }];
    expect(superseded(streamed)).toEqual(expected);
    expect(superseded(loopEvents)).toEqual(expected);
    expect(streamed[0].type).toBe('decision_superseded');
    // The read ran once, under the first decision, and its answer stands.
    expect(bank.ran.filter((id) => id === 'toolu_reveal')).toHaveLength(1);
    expect(answersById(done.messages).get('toolu_reveal')![0]).toMatchObject({ content: 'revealed secret' });
  });

  /** A resume with `first` that dies as `dies` has it, then, once its claim lapses, the retry with `second`. */
  async function retried(dies: (store: RunStore) => RunStore, first: ApprovalDecisions, second: ApprovalDecisions) {
    const paused = await pausedOnTheRead();
    const { tools, store, runId } = paused;
    await expect(resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store: dies(store), runId, decisions: first })).rejects.toThrow();
    paused.lapse();
    const events: ToolLoopEvent[] = [];
    const done = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId, decisions: second, onEvent: (e) => events.push(e) });
    return { ...paused, events, done };
  }

  it('reports nothing when the retry repeats the decision, or when nothing was answered under the earlier one', async () => {
    const repeated = { toolu_reveal: { approve: false, reason: 'no' } };
    expect(superseded((await retried(diesAfterFirstJournal, repeated, repeated)).events)).toEqual([]);

    // A denial recorded but never journaled: the retry's approval applies, so nothing is superseded.
    const unanswered = await retried(diesAfterRecording, { toolu_reveal: { approve: false } }, { toolu_reveal: { approve: true } });
    expect(superseded(unanswered.events)).toEqual([]);
    expect(unanswered.bank.ran).toContain('toolu_reveal');

    // An approval given again with a reason: no one reads an approval's reason, so it is the same one.
    const approvedAgain = await retried(diesAfterFirstJournal, { toolu_reveal: { approve: true } }, { toolu_reveal: { approve: true, reason: 'looks fine' } });
    expect(superseded(approvedAgain.events)).toEqual([]);
  });

  it('a denial with another reason is reported: the model read the first one', async () => {
    const { events, done } = await retried(diesAfterFirstJournal, { toolu_reveal: { approve: false, reason: 'first' } }, { toolu_reveal: { approve: false, reason: 'second' } });
    expect(superseded(events)).toEqual([{ toolUseId: 'toolu_reveal', requested: { approve: false, reason: 'second' }, recorded: { approve: false, reason: 'first' } }]);
    expect(answersById(done.messages).get('toolu_reveal')![0]).toMatchObject({ content: 'Denied by the user: first' });
  });
});
