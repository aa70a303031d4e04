import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { RunState } from './run-state';

/** A run as the store holds it; `revision` grows by one on every write and fences stale writers. */
export interface StoredRun {
  state: RunState;
  revision: number;
}

export interface ClaimOptions {
  /** Refuse the claim (`RunConflictError`) if the run changed since it was read at this revision. */
  expectedRevision?: number;
}

/** What `recordResult` kept: the result given, or (`recorded: false`) the one journaled before it. */
export interface RecordedResult {
  result: ToolResultBlockParam;
  recorded: boolean;
}

export interface RunStoreOptions {
  /**
   * How long a `'running'` run stays claimed after its last write (claim or save). A process
   * that crashed stops writing, and after this long another may claim the run and carry on from
   * the journal. Default 5 minutes; longer than the slowest batch of tools. Any length is taken:
   * the loop renews a claim every third of the lease, but at least every 2^31-1 ms (~24.8 days,
   * the longest timer delay), so a lease meant never to lapse is renewed that often, not every ms.
   */
  claimLeaseMs?: number;
  /** Milliseconds since the epoch; `Date.now` by default. All instances sharing a store should agree. */
  clock?: () => number;
}

export const DEFAULT_CLAIM_LEASE_MS = 5 * 60_000;

/**
 * Where runs and their results live. Every method is atomic on its own: no caller needs a lock,
 * and any number of processes may share one store.
 */
export interface RunStore {
  /** How long a claim lasts after its last write or renewal (`RunStoreOptions.claimLeaseMs`); the loop renews well inside it. */
  readonly claimLeaseMs: number;
  /** Saves a new run at revision 1; `RunConflictError('exists')` if the id is taken. */
  create(state: RunState): Promise<StoredRun>;
  load(runId: string): Promise<StoredRun | undefined>;
  /**
   * Replaces the run if it is still at `expectedRevision` (`RunConflictError` otherwise). Saving
   * a `'running'` state renews the claim; any other status releases it.
   */
  save(state: RunState, expectedRevision: number): Promise<StoredRun>;
  /**
   * Marks the run `'running'` for the caller. Of any number of concurrent claims exactly one
   * succeeds; the others get `RunClaimError('claimed')`. A run whose claim lapsed (its holder
   * stopped writing for `claimLeaseMs`) can be claimed again. Unknown and finished runs are refused.
   */
  claim(runId: string, options?: ClaimOptions): Promise<StoredRun>;
  /**
   * Extends the claim of a `'running'` run still at `expectedRevision` by `claimLeaseMs` from now,
   * changing nothing else (the revision stays). `RunConflictError` when the run is unknown or has
   * moved past that revision: another process took it over, and the caller no longer holds it.
   */
  renew(runId: string, expectedRevision: number): Promise<void>;
  /**
   * As `save`, and the claim ends now: a `'running'` state saved this way (a run that stopped
   * halfway in a process that is still alive) can be claimed again at once, not after the lease.
   */
  release(state: RunState, expectedRevision: number): Promise<StoredRun>;
  /** Journals the result of `result.tool_use_id`; the first write wins and later ones get it back. */
  recordResult(runId: string, result: ToolResultBlockParam): Promise<RecordedResult>;
  journaledResult(runId: string, toolUseId: string): Promise<ToolResultBlockParam | undefined>;
  /** Every journaled result of the run, keyed by `tool_use_id`, in the order they were recorded. */
  journaledResults(runId: string): Promise<Map<string, ToolResultBlockParam>>;
}

/** The lease `options` set (checked when the store is built, not at the first claim), or the default. */
export function checkRunStoreOptions(store: string, options: RunStoreOptions): number {
  const lease = options.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS;
  if (!Number.isSafeInteger(lease) || lease < 1) {
    throw new RangeError(`${store}: claimLeaseMs must be a whole number of milliseconds >= 1, got ${String(options.claimLeaseMs)}.`);
  }
  if (options.clock !== undefined && typeof options.clock !== 'function') {
    throw new TypeError(`${store}: clock must be a function returning milliseconds since the epoch (like Date.now).`);
  }
  return lease;
}
