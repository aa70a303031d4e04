import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { checkJournalResult } from './journal-result';
import { isStorableKey } from './storable-key';
import { checkRunState, type RunState } from './run-state';
import { RunClaimError, RunConflictError } from './run-store-errors';
import { checkRunStoreOptions, type ClaimOptions, type RecordedResult, type RunStore, type RunStoreOptions, type StoredRun } from './run-store';

interface Row {
  /** Kept as JSON text, as a database would: callers never share objects with the store. */
  state: string;
  status: RunState['status'];
  revision: number;
  leaseExpiresAt: number | undefined;
}

/**
 * A `RunStore` in this process's memory: for tests and single-process apps. Runs do not survive
 * a restart; use a database store (`@toolwright/pg-store`) for that or for many instances.
 */
export class InMemoryRunStore implements RunStore {
  private readonly runs = new Map<string, Row>();
  private readonly journal = new Map<string, Map<string, string>>();
  readonly claimLeaseMs: number;
  private readonly clock: () => number;

  constructor(options: RunStoreOptions = {}) {
    this.claimLeaseMs = checkRunStoreOptions('InMemoryRunStore', options);
    this.clock = options.clock ?? Date.now;
  }

  async create(state: RunState): Promise<StoredRun> {
    const checked = checkRunState(state);
    const existing = this.runs.get(checked.runId);
    if (existing) throw RunConflictError.exists(checked.runId, existing.revision);
    return this.write(checked, 1);
  }

  async load(runId: string): Promise<StoredRun | undefined> {
    // A key no store can hold names no run (see `keyProblem`); a database store answers the same.
    if (!isStorableKey(runId)) return undefined;
    const row = this.runs.get(runId);
    return row && read(row);
  }

  save(state: RunState, expectedRevision: number): Promise<StoredRun> {
    return this.replace(state, expectedRevision, true);
  }

  release(state: RunState, expectedRevision: number): Promise<StoredRun> {
    return this.replace(state, expectedRevision, false);
  }

  async renew(runId: string, expectedRevision: number): Promise<void> {
    const row = this.heldAt(runId, expectedRevision);
    row.leaseExpiresAt = row.status === 'running' ? this.clock() + this.claimLeaseMs : undefined;
  }

  async claim(runId: string, options: ClaimOptions = {}): Promise<StoredRun> {
    const row = isStorableKey(runId) ? this.runs.get(runId) : undefined;
    if (!row) throw RunClaimError.unknownRun(runId);
    const { state } = read(row);
    if (state.status === 'finished') throw RunClaimError.finished(runId);
    // Only a running row holds a lease (`write`, `renew`), so a lease alive is a claim held.
    if (row.leaseExpiresAt !== undefined && row.leaseExpiresAt > this.clock()) {
      throw RunClaimError.claimed(runId, row.leaseExpiresAt);
    }
    if (options.expectedRevision !== undefined && options.expectedRevision !== row.revision) {
      throw RunConflictError.revision(runId, options.expectedRevision, row.revision);
    }
    return this.write({ ...state, status: 'running' }, row.revision + 1);
  }

  async recordResult(runId: string, result: ToolResultBlockParam): Promise<RecordedResult> {
    const checked = checkJournalResult(result, runId);
    let results = this.journal.get(runId);
    if (!results) this.journal.set(runId, (results = new Map()));
    const journaled = results.get(checked.tool_use_id);
    if (journaled !== undefined) return { result: JSON.parse(journaled), recorded: false };
    const text = JSON.stringify(checked);
    results.set(checked.tool_use_id, text);
    return { result: JSON.parse(text), recorded: true };
  }

  async journaledResult(runId: string, toolUseId: string): Promise<ToolResultBlockParam | undefined> {
    const journaled = this.journal.get(runId)?.get(toolUseId);
    return journaled === undefined ? undefined : JSON.parse(journaled);
  }

  async journaledResults(runId: string): Promise<Map<string, ToolResultBlockParam>> {
    const results = this.journal.get(runId) ?? new Map<string, string>();
    return new Map([...results].map(([id, text]) => [id, JSON.parse(text)]));
  }

  private async replace(state: RunState, expectedRevision: number, leased: boolean): Promise<StoredRun> {
    const checked = checkRunState(state);
    const row = this.heldAt(checked.runId, expectedRevision);
    return this.write(checked, row.revision + 1, leased);
  }

  /** The run's row if it is still at `expectedRevision`; the `RunConflictError` every store gives otherwise. */
  private heldAt(runId: string, expectedRevision: number): Row {
    const row = isStorableKey(runId) ? this.runs.get(runId) : undefined;
    if (!row) throw RunConflictError.unknownRun(runId);
    if (row.revision !== expectedRevision) throw RunConflictError.revision(runId, expectedRevision, row.revision);
    return row;
  }

  private write(state: RunState, revision: number, leased = true): StoredRun {
    const row: Row = {
      state: JSON.stringify(state),
      status: state.status,
      revision,
      leaseExpiresAt: leased && state.status === 'running' ? this.clock() + this.claimLeaseMs : undefined,
    };
    this.runs.set(state.runId, row);
    return read(row);
  }
}

function read(row: Row): StoredRun {
  return { state: JSON.parse(row.state), revision: row.revision };
}
