import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import {
  InMemoryRunStore,
  RunStoreError,
  resumeToolLoop,
  runToolLoop,
  streamResumeToolLoop,
  streamToolLoop,
  toServerSentEvents,
  type ApprovalDecisions,
  type ApprovalPolicy,
  type RunStore,
  type RunStoreOptions,
  type ToolLoopResult,
  type ToolStream,
  type ToolStreamEvent,
} from '@toolwright/core';
import { checkTranscript, text, toolUse, turn } from '@toolwright/core/testing';
import { Refunds, SEALED, answersById, refundTools, replayClient } from './fixtures/refunds';
import { connectionLost, faultyStore, type Fault, type StoreOperation } from './fixtures/faulty-store';

// A run of random batches under a random policy, random decisions, and a process that dies at a
// random point: after any store operation has completed, or as a tool method starts (before its
// side effect). Everything in memory is then thrown away but the store (and the world outside,
// `ledger`), and the run is carried on from the store as a retried request would. The one point
// not simulated is between a write's own side effect and its journal entry: that window is what
// `ctx.toolUseId` as a downstream idempotency key covers (docs/approval-and-stores.md).
// Reads may ask for approval too (look_up of the vault order), so a denied read is exercised.
// Each attempt, start or resume, is at random the plain or the streamed form, its events read
// as Server-Sent Events: the guarantees do not depend on which. The container always has tools
// that may ask for approval, and streamed attempts still start reads early (DESIGN.md "Eager
// reads and approval"): only reads with nothing before them in the message that is a write or
// needs approval, and their results are journaled like any other.
// Besides crashes, the store itself fails at random calls (a dropped connection: create, load,
// claim, save, release, recordResult, journaledResults) in a process that lives on: the loop
// then ends with a RunStoreError and, when it could, releases the run, so the retry resumes it at
// once (only a run it could not release waits for the lease). A write whose result the store never
// took may run again, with the same ctx.toolUseId, and only when the error named it.

export const MODEL = 'claude-haiku-5-5';
const LEASE_MS = 1000;

class Crash extends Error {
  constructor() {
    super('simulated crash');
  }
}

type CallSpec = { tool: 'look_up'; vault: 'none' | 'asks' | 'sealed' } | { tool: 'refund'; amount: number } | { tool: 'note' } | { tool: 'wipe'; keep: boolean };

const callSpec: fc.Arbitrary<CallSpec> = fc.oneof(
  // Mostly a plain read: a read that starts early before an approval needs plain reads ahead of it.
  // A read asks one time in three, half of those of the sealed vault, whose own error reads like a denial
  // (ahead of the plain vault: fast-check draws the first values of a list more often in few runs).
  fc.record({ tool: fc.constant('look_up' as const), vault: fc.constantFrom('none' as const, 'none' as const, 'sealed' as const, 'none' as const, 'none' as const, 'asks' as const) }),
  fc.record({ tool: fc.constant('refund' as const), amount: fc.constantFrom(5, 13, 200) }),
  fc.constant({ tool: 'note' as const }),
  fc.record({ tool: fc.constant('wipe' as const), keep: fc.boolean() }),
);

export const scenario = fc.record({
  policy: fc.constantFrom<ApprovalPolicy>('none', 'writes'),
  batches: fc.array(fc.array(callSpec, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
  /** Decision per call id (used only if that call is pending). */
  approve: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
  /** The process dies at this event (store operation done, or tool method started); none past the last. */
  crashAt: fc.nat({ max: 60 }),
  crashAgainAt: fc.option(fc.nat({ max: 60 }), { nil: undefined }),
  /** Store calls that fail (the `n`th call of `op` over the whole run, counted from 1); the process lives on. */
  storeFaults: fc.array(
    fc.record({
      op: fc.constantFrom<StoreOperation>('create', 'load', 'claim', 'save', 'release', 'recordResult', 'journaledResults'),
      n: fc.integer({ min: 1, max: 8 }),
    }),
    { maxLength: 4 },
  ),
  /** Whether attempt n uses streamToolLoop / streamResumeToolLoop. */
  streamed: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
});
export type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function block(spec: CallSpec, id: string) {
  switch (spec.tool) {
    case 'look_up':
      return toolUse(id, 'look_up', { order: { none: 'A-1001', asks: 'A-7777', sealed: 'A-7778' }[spec.vault] });
    case 'note':
      return toolUse(id, spec.tool, { order: 'A-1001' });
    case 'refund':
      return toolUse(id, 'refund', { order: 'A-1001', amount: spec.amount });
    case 'wipe':
      return toolUse(id, 'wipe', { order: spec.keep ? 'A-0000' : 'A-1001' });
  }
}

/** Whether the call must be approved before it runs, from the fixture's rules. */
function needsApproval(spec: CallSpec, policy: ApprovalPolicy): boolean {
  if (spec.tool === 'wipe') return !spec.keep;
  if (spec.tool === 'look_up') return spec.vault !== 'none';
  return spec.tool === 'refund' && spec.amount !== 13 && policy === 'writes';
}

/** A simulated crash, as thrown or as the cause of the loop's typed store error (`RunStoreError`). */
function crashed(error: unknown): boolean {
  return error instanceof Crash || (error instanceof Error && error.cause !== undefined && crashed(error.cause));
}

/** One process: its own container, client and provider; it dies at its `crashAt`-th event. */
class Process {
  private events = 0;
  dead = false;

  constructor(
    private readonly crashAt: number | undefined,
    readonly ledger: string[],
    private readonly fault: Fault = () => undefined,
  ) {}

  /** An event of this process: it may be the one it dies at. */
  tick(): void {
    if (this.dead) throw new Crash();
    if (this.events++ === this.crashAt) {
      this.dead = true;
      throw new Crash();
    }
  }

  /**
   * The store as this process sees it: every operation completes, then may be the one it dies
   * after; before that, `faulty` may fail it as a dropped connection would.
   */
  view(store: RunStore, created: { runId?: string }): RunStore {
    const inner = faultyStore(store, this.fault);
    const after = async <T>(op: () => Promise<T>): Promise<T> => {
      if (this.dead) throw new Crash();
      const value = await op();
      this.tick();
      return value;
    };
    return {
      claimLeaseMs: store.claimLeaseMs,
      create: (state) => after(async () => {
        const stored = await inner.create(state);
        created.runId = stored.state.runId;
        return stored;
      }),
      load: (id) => after(() => inner.load(id)),
      save: (state, revision) => after(() => inner.save(state, revision)),
      claim: (id, options) => after(() => inner.claim(id, options)),
      renew: (id, revision) => after(() => inner.renew(id, revision)),
      release: (state, revision) => after(() => inner.release(state, revision)),
      recordResult: (id, result) => after(() => inner.recordResult(id, result)),
      journaledResult: (id, toolUseId) => after(() => inner.journaledResult(id, toolUseId)),
      journaledResults: (id) => after(() => inner.journaledResults(id)),
    };
  }

  provider(): Refunds {
    const provider = new Refunds();
    const process = this;
    // The world outside the process: what ran stays run whatever happens to the process.
    provider.ran = {
      push(id: string) {
        process.tick();
        return process.ledger.push(id);
      },
    } as unknown as string[];
    return provider;
  }
}

/** The run's result, its events read as the frames `toServerSentEvents` writes; `done` last, and agreeing with the result. */
async function overServerSentEvents(stream: ToolStream, runId: () => string | undefined, seen: ToolStreamEvent[]): Promise<ToolLoopResult> {
  let body = '';
  for await (const chunk of toServerSentEvents(stream, { exposeErrors: true })) body += String(chunk);
  const frames = body.split('\n\n').slice(0, -1).map((frame) => {
    const [name, data] = frame.split('\n');
    const event = JSON.parse(data.slice('data: '.length)) as ToolStreamEvent;
    expect(name).toBe(`event: ${event.type}`);
    seen.push(event);
    return event;
  });
  const done = frames.at(-1)!;
  expect(frames.filter((e) => e.type === 'done')).toEqual([done]);
  let result: ToolLoopResult;
  try {
    result = await stream.result;
  } catch (error) {
    expect(done).toMatchObject({ type: 'done', stopReason: 'error' });
    throw error;
  }
  expect(done).toMatchObject({ type: 'done', stopReason: result.stopReason, turns: result.turns });
  const paused = frames.filter((e) => e.type === 'approval_required');
  expect(paused).toEqual(result.stopReason === 'approval_required' ? [expect.objectContaining({ runId: runId(), pending: result.pending })] : []);
  return result;
}

export type Outcome = { messages: MessageParam[]; ledger: string[]; decided: ApprovalDecisions; violations: string[]; events: ToolStreamEvent[]; unjournaled: Set<string> };

/** Builds the store a scenario plays on (fresh run ids each time, so one backend serves all). */
export type MakeStore = (options: RunStoreOptions) => RunStore;

/** Plays `s` to the end on a store from `makeStore` (`InMemoryRunStore` by default), crashing and failing where it says. */
export async function play(s: Scenario, makeStore: MakeStore = (options) => new InMemoryRunStore(options)): Promise<Outcome> {
  let now = 0;
  const store = makeStore({ claimLeaseMs: LEASE_MS, clock: () => now });
  const specs = new Map<string, CallSpec>();
  const turns = s.batches.map((batch, t) =>
    turn(
      'tool_use',
      ...batch.map((spec, i) => {
        const id = `toolu_${t}_${i}`;
        specs.set(id, spec);
        return block(spec, id);
      }),
    ),
  );
  const script = (messages: readonly MessageParam[]) => turns[messages.filter((m) => m.role === 'assistant').length] ?? turn('end_turn', text('done'));
  const ids = [...specs.keys()];
  const decisionFor = (id: string) => ({ approve: s.approve[ids.indexOf(id)], ...(s.approve[ids.indexOf(id)] ? {} : { reason: 'no' }) });
  const ledger: string[] = [];
  const decided: ApprovalDecisions = {};
  const violations: string[] = [];
  const created: { runId?: string } = {};
  const crashes = [s.crashAt, s.crashAgainAt];
  const events: ToolStreamEvent[] = [];
  // Counted over the whole run, as a flaky database fails whichever process calls it.
  const counts = new Map<StoreOperation, number>();
  const failing: Fault = (op) => {
    const n = (counts.get(op) ?? 0) + 1;
    counts.set(op, n);
    return s.storeFaults.some((f) => f.op === op && f.n === n) ? connectionLost() : undefined;
  };
  const unjournaled = new Set<string>();

  for (let attempt = 0; attempt < 20; attempt++) {
    const process = new Process(crashes[attempt], ledger, failing);
    // A tool method the process died in is answered as an internal error no one will read.
    const { tools } = refundTools(s.policy, process.provider(), { error: () => undefined, warn: () => undefined });
    const client = replayClient(script);
    const common = { client, model: MODEL, tools, store: process.view(store, created) };
    let result: ToolLoopResult;
    try {
      const streamed = s.streamed[attempt];
      const runId = () => created.runId;
      if (created.runId === undefined) {
        const options = { ...common, prompt: 'go' };
        result = streamed ? await overServerSentEvents(streamToolLoop(options), runId, events) : await runToolLoop(options);
      } else {
        const stored = await store.load(created.runId);
        if (stored!.state.status === 'finished') return { messages: stored!.state.messages, ledger, decided, violations, events, unjournaled };
        const decisions: ApprovalDecisions = {};
        for (const call of stored!.state.pending) decisions[call.toolUseId] = decided[call.toolUseId] ?? decisionFor(call.toolUseId);
        Object.assign(decided, decisions);
        const options = { ...common, runId: created.runId, decisions };
        result = streamed ? await overServerSentEvents(await streamResumeToolLoop(options), runId, events) : await resumeToolLoop(options);
      }
    } catch (error) {
      violations.push(...client.violations);
      if (crashed(error)) {
        // The dead process's claim lapses; whoever retries the request next may take the run over.
        now += LEASE_MS + 1;
        continue;
      }
      if (!(error instanceof RunStoreError)) throw error;
      expect(error.runId).toEqual(error.operation === 'create' ? expect.any(String) : created.runId);
      error.unjournaled.forEach((id) => unjournaled.add(id));
      // Released: the retry claims it at once. Otherwise the claim lapses first.
      if (!error.released) now += LEASE_MS + 1;
      continue;
    }
    violations.push(...client.violations);
    if (result.stopReason !== 'approval_required') return { messages: result.messages, ledger, decided, violations, events, unjournaled };
    expect(result.pending!.length).toBeGreaterThan(0);
  }
  throw new Error('the run did not finish in 20 attempts');
}

/**
 * Runs where a read started early in a batch that then waited for approval (the case the eager
 * rule changed), the decisions the runs were given (approvals and denials both), and denied
 * reads with calls after them in their batch.
 */
export const tally = { eagerBeforeApproval: 0, approved: 0, denied: 0, deniedReadBeforeMore: 0, sealedReadBeforeMore: 0 };

export function checkRun(s: Scenario, outcome: Outcome): void {
  const { messages, ledger, decided, violations, events, unjournaled } = outcome;
  const specs = new Map<string, CallSpec>(s.batches.flatMap((batch, t) => batch.map((spec, i): [string, CallSpec] => [`toolu_${t}_${i}`, spec])));
  // A read starts early only with nothing before it in its message that writes or needs approval.
  for (const event of events) {
    if (event.type !== 'tool_start' || !event.eager) continue;
    const [, t, i] = event.toolUseId.split('_').map(Number);
    expect(s.batches[t].slice(0, i + 1).every((spec) => spec.tool === 'look_up' && !needsApproval(spec, s.policy))).toBe(true);
    if (s.batches[t].some((spec) => needsApproval(spec, s.policy))) tally.eagerBeforeApproval++;
  }
  // Writes at most once per tool_use_id, whatever crashed or failed where, but for a write a
  // RunStoreError named as unjournaled. A read may run again: one that completed beside the call
  // the process died in had no chance to be journaled, and reads change nothing.
  const writes = ledger.filter((id) => specs.get(id)!.tool !== 'look_up');
  const again = writes.filter((id, i) => writes.indexOf(id) !== i);
  for (const id of again) expect(unjournaled).toContain(id);
  if (s.storeFaults.length === 0) expect(again).toEqual([]);
  // Nothing that needed approval ran without it; nothing denied ran.
  for (const id of ledger) {
    if (needsApproval(specs.get(id)!, s.policy)) expect(decided[id]?.approve).toBe(true);
  }
  // Every tool_use answered exactly once, in a transcript the API accepts.
  expect(checkTranscript(messages)).toEqual([]);
  expect(violations).toEqual([]);
  const answers = answersById(messages);
  const asked = messages.flatMap((m) => (m.role === 'assistant' && typeof m.content !== 'string' ? m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : []));
  expect(asked.sort()).toEqual([...specs.keys()].sort());
  for (const id of asked) expect(answers.get(id)).toHaveLength(1);
  expect(answers.size).toBe(asked.length);
  for (const decision of Object.values(decided)) tally[decision.approve ? 'approved' : 'denied']++;
  // A denial counts as a failed write, a denied read's too: nothing after it in its batch runs,
  // however many attempts the batch took.
  for (const [t, batch] of s.batches.entries()) {
    const denied = batch.findIndex((_, i) => decided[`toolu_${t}_${i}`]?.approve === false);
    if (denied < 0) continue;
    if (batch[denied].tool === 'look_up' && denied < batch.length - 1) tally.deniedReadBeforeMore++;
    for (let i = denied + 1; i < batch.length; i++) {
      const id = `toolu_${t}_${i}`;
      expect({ id, ran: ledger.includes(id) }).toEqual({ id, ran: false });
      // Halted, or denied itself (every denial of the batch is answered before any call runs).
      expect(answers.get(id)![0].content).toMatch(decided[id]?.approve === false ? /^Denied by the user/ : /^Not executed/);
    }
  }
  const sealed = (id: string) => { const spec = specs.get(id)!; return spec.tool === 'look_up' && spec.vault === 'sealed'; };
  for (const [t, batch] of s.batches.entries()) {
    if (batch.slice(0, -1).some((_, i) => sealed(`toolu_${t}_${i}`) && decided[`toolu_${t}_${i}`]?.approve === true)) tally.sealedReadBeforeMore++;
  }
  for (const [id, [answer]] of answers) {
    if (decided[id]?.approve === false) expect(answer.content).toBe('Denied by the user: no');
    // An approved call is not answered as denied (but by the sealed vault's own error), and
    // whatever is answered as done really ran.
    if (decided[id]?.approve === true) expect(answer.content).toMatch(sealed(id) ? new RegExp(`^(${SEALED}|Not executed)`) : /^(?!Denied)/);
    // A halt names its cause, and that is a denial or a write: a read that failed on its own,
    // whatever its text, halts nothing, on the attempt that ran it or on any after.
    const halt = typeof answer.content === 'string' ? /^Not executed: an earlier call in this batch \(\w+, (toolu_\d+_\d+)\) failed\.$/.exec(answer.content) : null;
    if (halt) expect({ id, haltedBy: halt[1], denialOrWrite: decided[halt[1]]?.approve === false || specs.get(halt[1])!.tool !== 'look_up' }).toEqual({ id, haltedBy: halt[1], denialOrWrite: true });
    if (!answer.is_error) expect({ id, ran: ledger.includes(id) }).toEqual({ id, ran: true });
  }
  expect(messages[messages.length - 1]).toEqual({ role: 'assistant', content: [text('done')] });
}
