import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { createRunState, type PendingCall, type RunBudgetsUsed, type RunState, type RunStatus } from '../approval/run-state';
import { signRunState, type RunStateSecret, type SignedRunState } from '../approval/run-state-signature';
import type { RunStore, StoredRun } from '../approval/run-store';

/**
 * One run as the loop keeps it in a `RunStore`: the state it saves at each step (so another
 * process can carry on after a crash) and the journal of results (so no call runs twice).
 * Every save names the revision this process last wrote: a process whose claim lapsed and was
 * taken over fails its next save instead of overwriting the newer run.
 */
export class DurableRun {
  private constructor(
    private readonly store: RunStore,
    private stored: StoredRun,
    private readonly secret: RunStateSecret | undefined,
  ) {}

  /** A new run, saved as `'running'` (claimed by this process) before the first request. */
  static async start(store: RunStore, messages: readonly MessageParam[], secret: RunStateSecret | undefined, owner: string | undefined): Promise<DurableRun> {
    const state = createRunState({ status: 'running', messages: [...messages], pending: [], owner });
    return new DurableRun(store, await store.create(state), secret);
  }

  /** A run this process has just claimed. */
  static claimed(store: RunStore, stored: StoredRun, secret: RunStateSecret | undefined): DurableRun {
    return new DurableRun(store, stored, secret);
  }

  get runId(): string {
    return this.stored.state.runId;
  }

  get state(): RunState {
    return this.stored.state;
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

  /** Journals a call's result; when one was journaled first, that one is the answer. */
  async journal(result: ToolResultBlockParam): Promise<ToolResultBlockParam> {
    return (await this.store.recordResult(this.runId, result)).result;
  }

  journaled(): Promise<Map<string, ToolResultBlockParam>> {
    return this.store.journaledResults(this.runId);
  }

  /** The saved state, signed, for a state that travels outside the server; undefined without a `secret`. */
  signed(): SignedRunState | undefined {
    return this.secret === undefined ? undefined : signRunState(this.stored.state, this.secret);
  }

  private async write(status: RunStatus, messages: readonly MessageParam[], pending: PendingCall[], used: RunBudgetsUsed): Promise<void> {
    const state = createRunState({ runId: this.runId, owner: this.stored.state.owner, status, messages: structuredClone([...messages]), pending, used });
    this.stored = await this.store.save(state, this.stored.revision);
  }
}
