import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { checkRunState, createRunState, type PendingCall, type RunBudgetsUsed, type RunState, type RunStatus } from '../approval/run-state';
import { signRunState, type RunStateSecret, type SignedRunState } from '../approval/run-state-signature';
import type { RunStore, StoredRun } from '../approval/run-store';
import { RunConflictError, RunStoreError, type RunStoreOperation } from '../approval/run-store-errors';
import { storeFailure } from './store-failure';
import { RunStateError } from '../approval/run-state-error';
import { checkJournaledEntry } from '../approval/journal-result';
import { StoreSilence, leaseOf, timerDelay, untilAnswered } from './store-silence';

/** What became of the run after a failure this process observed. */
export interface Interruption {
  /** The run is saved and unclaimed: a resume may take it at once. */
  released: boolean;
  /** Completed calls whose results are still not journaled. */
  unjournaled: string[];
  /** Why the claim could not be kept, when it was lost. */
  lost?: RunStoreError;
  /** Why the run could not be released, when it was not (and its claim was not lost). */
  failure?: unknown;
}

/**
 * One run as the loop keeps it in a `RunStore`: the state it saves at each step (so another
 * process can carry on after a crash) and the journal of results (so no call runs twice).
 * Every save names the revision this process last wrote: a process whose claim lapsed and was
 * taken over fails its next save instead of overwriting the newer run. While the run is held, a
 * heartbeat renews the claim every third of the lease (at most every 2^31-1 ms, ~24.8 days); a renewal that fails means the claim may
 * be someone else's, and `lost` then stops the run before its next call. Writes of the run go
 * one at a time, so a renewal never races a save for the revision.
 */
export class DurableRun {
  private held = true;
  private lostClaim: RunStoreError | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private writes: Promise<unknown> = Promise.resolve();
  /** Results of completed calls the store did not take: journaled again before the claim is released. */
  private readonly unjournaled = new Map<string, ToolResultBlockParam>();
  /**
   * The journal's answer for each call this process journaled or read: a call answered again
   * (the batch's commit journals every answer of the turn, some journaled as they completed) is
   * not sent to the store twice, so a second write that fails never names a journaled call unjournaled.
   */
  private readonly answers = new Map<string, ToolResultBlockParam>();
  private readonly lease: number;
  /** The run's signal: a store call still unanswered a grace after it aborts is given up (`answered`). */
  private signal: AbortSignal | undefined;
  /** Set once a store call was given up: the store is not answering, and is not called again. */
  private silence: StoreSilence | undefined;

  private constructor(
    private readonly store: RunStore,
    private stored: StoredRun,
    private readonly secret: RunStateSecret | undefined,
  ) {
    const lease = leaseOf(store);
    this.lease = lease;
    // Capped: timers run a delay over 2^31-1 ms after 1 ms instead, which would renew a lease of
    // more than ~74 days every millisecond. Renewing every ~24.8 days still keeps such a lease alive.
    this.heartbeat = setInterval(() => this.renew(), timerDelay(Math.floor(lease / 3)));
    // A heartbeat alone never keeps the process alive; the run's own work does.
    this.heartbeat.unref();
  }

  /** A new run, saved as `'running'` (claimed by this process) before the first request. */
  static async start(store: RunStore, messages: readonly MessageParam[], secret: RunStateSecret | undefined, owner: string | undefined, signal?: AbortSignal): Promise<DurableRun> {
    const state = createRunState({ status: 'running', messages: [...messages], pending: [], owner });
    // A create the store does not answer (within the lease, or the grace after an abort) is given
    // up: nothing ran, and a run it did save lapses with its lease.
    const stored = ownRun(state.runId, 'create', await call(state.runId, 'create', () => untilAnswered('create', () => store.create(state), signal, leaseOf(store))));
    const run = new DurableRun(store, stored, secret);
    if (signal) run.follow(signal);
    return run;
  }

  /**
   * From now on a store call still unanswered `ABORT_GRACE_MS` after `signal` aborts is given up, so an abort
   * settles the run even while its store hangs; see `answered`.
   */
  follow(signal: AbortSignal): void {
    this.signal = signal;
  }

  /** A run this process has just claimed. */
  static claimed(store: RunStore, runId: string, stored: StoredRun, secret: RunStateSecret | undefined): DurableRun {
    return new DurableRun(store, ownRun(runId, 'claim', stored), secret);
  }

  get runId(): string {
    return this.stored.state.runId;
  }

  get state(): RunState {
    return this.stored.state;
  }

  /** Why the run must stop before its next call or request: its claim is lost. */
  get lost(): RunStoreError | undefined {
    return this.lostClaim;
  }

  /** Saves where the run is, still claimed by this process (the save renews the claim). */
  checkpoint(messages: readonly MessageParam[], used: RunBudgetsUsed): Promise<void> {
    return this.write('running', messages, [], used);
  }

  /** Saves the run as waiting for decisions on `pending`, and releases the claim. */
  pause(messages: readonly MessageParam[], pending: PendingCall[], used: RunBudgetsUsed): Promise<void> {
    return this.write('pending', messages, pending, used);
  }

  finish(messages: readonly MessageParam[], used: RunBudgetsUsed): Promise<void> {
    return this.write('finished', messages, [], used);
  }

  /**
   * Saves `pending` (the pending calls with their decisions) in the claimed run, as it is
   * otherwise: the decisions are in the store before any result of their calls is journaled.
   */
  recordDecisions(pending: PendingCall[]): Promise<void> {
    const { messages, used } = this.stored.state;
    return this.write('running', messages, pending, used);
  }

  /** Journals a call's result; when one was journaled first, that one is the answer. */
  async journal(result: ToolResultBlockParam): Promise<ToolResultBlockParam> {
    const known = this.answers.get(result.tool_use_id);
    if (known) return known;
    try {
      const recorded = await this.answered('recordResult', () => this.store.recordResult(this.runId, result));
      // The store's answer must be this call's result (ours, or the one journaled first).
      const answer = checkJournaledEntry(recorded?.result, this.runId, result.tool_use_id);
      this.unjournaled.delete(result.tool_use_id);
      this.answers.set(result.tool_use_id, answer);
      return answer;
    } catch (error) {
      if (error instanceof RunStateError) throw error;
      // Failed or given up unanswered, the entry may or may not have landed: the call is named as
      // unjournaled, and a resume reads the journal first (a landed entry is the answer; only a
      // missing one runs the call again, with the same ctx.toolUseId).
      this.unjournaled.set(result.tool_use_id, result);
      throw storeFailure(this.runId, 'recordResult', error);
    }
  }

  async journaled(): Promise<Map<string, ToolResultBlockParam>> {
    const journaled = await call(this.runId, 'journaledResults', () => this.answered('journaledResults', () => this.store.journaledResults(this.runId)));
    // Whatever store answered: an entry that is not its own key's result would answer another call
    // twice and leave its own call to run again.
    for (const [toolUseId, result] of journaled) this.answers.set(toolUseId, checkJournaledEntry(result, this.runId, toolUseId));
    return journaled;
  }

  /** The saved state, signed, for a state that travels outside the server; undefined without a `secret`. */
  signed(): SignedRunState | undefined {
    return this.secret === undefined ? undefined : signRunState(this.stored.state, this.secret);
  }

  /**
   * After a failure this process observed (an API error, a store error, anything but its own
   * death): journals the results the store did not take, then saves the run and ends its claim,
   * so a retry can resume it at once. What is saved is `messages` when every call in them is
   * answered, and otherwise the last state saved (a batch saved before its approvals were known
   * must never be found and run undecided). A lost claim is left alone: it is someone else's.
   */
  async interrupt(messages: readonly MessageParam[], used: RunBudgetsUsed): Promise<Interruption> {
    this.stopHeartbeat();
    await this.writes;
    const outcome = (released: boolean, failure?: unknown): Interruption => ({
      released,
      unjournaled: [...this.unjournaled.keys()],
      ...(this.lostClaim && { lost: this.lostClaim }),
      ...(failure !== undefined && { failure }),
    });
    if (!this.held) return outcome(false);
    if (this.lostClaim) return outcome(false);
    try {
      for (const result of [...this.unjournaled.values()]) await this.journal(result);
      const last = messages[messages.length - 1];
      const settled = last?.role === 'user';
      const state = settled
        ? createRunState({ runId: this.runId, owner: this.stored.state.owner, status: 'running', messages: structuredClone([...messages]), pending: [], used })
        : { ...this.stored.state, status: 'running' as const };
      this.stored = await this.answered('release', () => this.store.release(state, this.stored.revision));
      this.held = false;
      return outcome(true);
    } catch (error) {
      return outcome(false, error);
    }
  }

  private write(status: RunStatus, messages: readonly MessageParam[], pending: PendingCall[], used: RunBudgetsUsed): Promise<void> {
    const state = createRunState({ runId: this.runId, owner: this.stored.state.owner, status, messages: structuredClone([...messages]), pending, used });
    return this.serially(async () => {
      if (this.lostClaim) throw this.lostClaim;
      try {
        this.stored = ownRun(this.runId, 'save', await this.answered('save', () => this.store.save(state, this.stored.revision)));
      } catch (error) {
        if (error instanceof RunStateError) throw error;
        // Refused at our revision: someone else has written the run since, so the claim is theirs.
        if (error instanceof RunConflictError) this.lose(error, 'save');
        throw this.lostClaim ?? storeFailure(this.runId, 'save', error);
      }
      if (status !== 'running') {
        this.held = false;
        this.stopHeartbeat();
      }
    });
  }

  private renew(): void {
    // The revision is read once the writes before this renewal are done: it is the one held now.
    this.serially(() => (this.held ? this.answered('renew', () => this.store.renew(this.runId, this.stored.revision)) : Promise.resolve())).catch((error: unknown) => {
      // A renewal given up at an abort says nothing of the claim: the run ends on the silence instead.
      if (this.held && !(error instanceof StoreSilence)) this.lose(error, 'renew');
    });
  }

  private lose(error: unknown, operation: RunStoreOperation): void {
    this.lostClaim ??= storeFailure(this.runId, operation, error, 'claim_lost') as RunStoreError;
    this.stopHeartbeat();
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /**
   * A store call of the held run, given up (rejected with `StoreSilence`) if the store has not
   * answered it within the lease, or `ABORT_GRACE_MS` after the run is aborted, so no await on the
   * store outlives either. Once one is given up the store is not called again by this run, the
   * heartbeat's renewals included: the claim is left to lapse with its lease, so another process
   * can recover the run, and the error says so (`released: false`).
   */
  private answered<T>(operation: RunStoreOperation, op: () => Promise<T>): Promise<T> {
    if (this.silence) return Promise.reject(this.silence);
    return untilAnswered(operation, op, this.signal, this.lease, (silence) => {
      this.silence ??= silence;
    });
  }

  private serially<T>(op: () => Promise<T>): Promise<T> {
    const next = this.writes.then(op);
    this.writes = next.catch(() => undefined);
    return next;
  }
}

/** A store call made outside a held run (creating, loading, claiming): its failure as a `RunStoreError`. */
async function call<T>(runId: string, operation: RunStoreOperation, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    throw storeFailure(runId, operation, error);
  }
}

/**
 * `stored`, the store's answer to `operation` on the run `runId`, if it is that run. A store that
 * answers with another run's state (a row copied under the wrong id, a store with a bug) would
 * have this run decide, run and journal the other's calls: refused before anything of it is used.
 */
export function ownRun(runId: string, operation: RunStoreOperation, stored: StoredRun): StoredRun {
  const found = (stored as StoredRun | undefined)?.state?.runId;
  if (found === runId) return { ...stored, state: checkedState(runId, operation, stored.state) };
  throw new RunStateError(
    'malformed',
    `Run ${JSON.stringify(runId)}: the store answered ${operation} with the state of ${typeof found === 'string' ? `run ${JSON.stringify(found)}` : 'no run'}, not this run's. ` +
      'Nothing of it was run. The store holds a wrong row for this run (copied or restored under the wrong id) or has a bug: fix it before resuming.',
  );
}

/** The state whole, whatever store answered it: a custom store may hand back a row nobody checked. */
function checkedState(runId: string, operation: RunStoreOperation, state: unknown): RunState {
  try {
    return checkRunState(state);
  } catch (error) {
    if (!(error instanceof RunStateError) || error.problem !== 'malformed') throw error;
    throw new RunStateError(
      'malformed',
      `Run ${JSON.stringify(runId)}: the store answered ${operation} with a state that is not valid (${error.message.replace(/^Run state is not valid: /, '').replace(/\.$/, '')}). ` +
        'Nothing of it was run. Fix or remove that row of the store before resuming.',
    );
  }
}
