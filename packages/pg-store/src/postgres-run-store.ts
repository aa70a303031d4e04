import {
  RunClaimError,
  RunConflictError,
  RunStateError,
  checkJournalResult,
  checkJournaledEntry,
  checkRunState,
  checkRunStoreOptions,
  keyProblem,
  type ClaimOptions,
  type RecordedResult,
  type RunState,
  type RunStore,
  type RunStoreOptions,
  type StoredRun,
} from '@toolwright/core';
import { jsonText } from './json-text';
import type { SqlClient } from './sql-client';

/** A `tool_result` block, named through core so this package needs no SDK of its own. */
type ToolResultBlockParam = RecordedResult['result'];

/**
 * Postgres codes of a schema older than this package: a missing table (42P01) or column (42703),
 * or `status` still generated (428C9, written before migration 2).
 */
const SCHEMA_BEHIND = new Set(['42P01', '42703', '428C9']);

/**
 * A `RunStore` in Postgres, shared by every instance that uses the same database. Each write is
 * one atomic statement: a claim is a conditional `UPDATE` (the row lock it takes makes a second
 * claimer wait, then see the first one's claim and match nothing), a journal write an
 * `INSERT … ON CONFLICT DO NOTHING`; a read afterwards only explains a write that matched
 * nothing. States and results are kept as JSON text, so any value round-trips exactly. Run
 * `migrate(client)` once before using it.
 */
export class PostgresRunStore implements RunStore {
  readonly claimLeaseMs: number;
  private readonly clock: () => number;

  constructor(
    private readonly client: SqlClient,
    options: RunStoreOptions = {},
  ) {
    if (typeof client?.query !== 'function') {
      throw new TypeError('PostgresRunStore: pass a client with query(text, params), such as a pg Pool or a PGlite database.');
    }
    this.claimLeaseMs = checkRunStoreOptions('PostgresRunStore', options);
    this.clock = options.clock ?? Date.now;
  }

  async create(state: RunState): Promise<StoredRun> {
    const checked = checkRunState(state);
    const { rows } = await this.query(
      `INSERT INTO toolwright_runs (run_id, revision, state, status, lease_expires_at) VALUES ($1, 1, $2, $3, $4::bigint)
       ON CONFLICT (run_id) DO NOTHING RETURNING state, status, revision`,
      [checked.runId, jsonText(checked), checked.status, this.leaseFor(checked)],
    );
    if (rows[0]) return stored(rows[0], checked.runId);
    const current = await this.current(checked.runId);
    throw RunConflictError.exists(checked.runId, current?.revision ?? 0);
  }

  async load(runId: string): Promise<StoredRun | undefined> {
    // A key no store can hold names no run; sent as a parameter it would fail (NUL) or be altered (a lone surrogate).
    if (keyProblem(runId)) return undefined;
    const { rows } = await this.query('SELECT state, status, revision FROM toolwright_runs WHERE run_id = $1', [runId]);
    return rows[0] && stored(rows[0], runId);
  }

  save(state: RunState, expectedRevision: number): Promise<StoredRun> {
    return this.replace(state, expectedRevision, true);
  }

  release(state: RunState, expectedRevision: number): Promise<StoredRun> {
    return this.replace(state, expectedRevision, false);
  }

  async renew(runId: string, expectedRevision: number): Promise<void> {
    if (keyProblem(runId)) throw RunConflictError.unknownRun(runId);
    const { rows } = await this.query(
      `UPDATE toolwright_runs SET lease_expires_at = CASE WHEN status = 'running' THEN $2::bigint END
       WHERE run_id = $1 AND revision = $3::integer RETURNING revision`,
      [runId, this.clock() + this.claimLeaseMs, expectedRevision],
    );
    if (!rows[0]) await this.refuseWrite(runId, expectedRevision);
  }

  async claim(runId: string, options: ClaimOptions = {}): Promise<StoredRun> {
    if (keyProblem(runId)) throw RunClaimError.unknownRun(runId);
    // The explanation is read after the UPDATE matched nothing; if by then the run has become
    // claimable again (its holder released it in between), the claim is simply tried again.
    for (;;) {
      const now = this.clock();
      const { rows } = await this.query(
        `UPDATE toolwright_runs
         SET status = 'running', revision = revision + 1, lease_expires_at = $2::bigint, updated_at = now()
         WHERE run_id = $1 AND status IS DISTINCT FROM 'finished'
           AND (lease_expires_at IS NULL OR lease_expires_at <= $3::bigint)
           AND ($4::integer IS NULL OR revision = $4::integer)
         RETURNING state, status, revision`,
        [runId, now + this.claimLeaseMs, now, options.expectedRevision ?? null],
      );
      if (rows[0]) return stored(rows[0], runId);
      const current = await this.current(runId);
      if (!current) throw RunClaimError.unknownRun(runId);
      if (current.status === 'finished') throw RunClaimError.finished(runId);
      if (current.leaseExpiresAt !== undefined && current.leaseExpiresAt > this.clock()) throw RunClaimError.claimed(runId, current.leaseExpiresAt);
      if (options.expectedRevision !== undefined && options.expectedRevision !== current.revision) {
        throw RunConflictError.revision(runId, options.expectedRevision, current.revision);
      }
    }
  }

  async recordResult(runId: string, result: ToolResultBlockParam): Promise<RecordedResult> {
    const checked = checkJournalResult(result, runId);
    const text = jsonText(checked);
    const { rows } = await this.query(
      `INSERT INTO toolwright_results (run_id, tool_use_id, result) VALUES ($1, $2, $3)
       ON CONFLICT (run_id, tool_use_id) DO NOTHING RETURNING result`,
      [runId, checked.tool_use_id, text],
    );
    if (rows[0]) return { result: JSON.parse(text), recorded: true };
    const journaled = await this.journaledResult(runId, checked.tool_use_id);
    // A journal row is never deleted, so the conflicting row is there to read (and checked by `journaledResult`).
    return { result: journaled as ToolResultBlockParam, recorded: false };
  }

  async journaledResult(runId: string, toolUseId: string): Promise<ToolResultBlockParam | undefined> {
    if (keyProblem(runId) || keyProblem(toolUseId)) return undefined;
    const { rows } = await this.query('SELECT result FROM toolwright_results WHERE run_id = $1 AND tool_use_id = $2', [runId, toolUseId]);
    return rows[0] && checkJournaledEntry(String(rows[0].result), runId, toolUseId);
  }

  async journaledResults(runId: string): Promise<Map<string, ToolResultBlockParam>> {
    if (keyProblem(runId)) return new Map();
    const { rows } = await this.query('SELECT tool_use_id, result FROM toolwright_results WHERE run_id = $1 ORDER BY seq', [runId]);
    // Each row checked against its own key: a row holding another call's result would answer that
    // call twice and leave its own call to run again.
    return new Map(rows.map((row) => [String(row.tool_use_id), checkJournaledEntry(String(row.result), runId, String(row.tool_use_id))]));
  }

  private async replace(state: RunState, expectedRevision: number, leased: boolean): Promise<StoredRun> {
    const checked = checkRunState(state);
    const { rows } = await this.query(
      `UPDATE toolwright_runs SET state = $2, status = $3, revision = revision + 1, lease_expires_at = $4::bigint, updated_at = now()
       WHERE run_id = $1 AND revision = $5::integer RETURNING state, status, revision`,
      [checked.runId, jsonText(checked), checked.status, leased ? this.leaseFor(checked) : null, expectedRevision],
    );
    if (rows[0]) return stored(rows[0], checked.runId);
    return this.refuseWrite(checked.runId, expectedRevision);
  }

  /** Why a write at `expectedRevision` matched nothing, as the `RunConflictError` every store gives. */
  private async refuseWrite(runId: string, expectedRevision: number): Promise<never> {
    const current = await this.current(runId);
    if (!current) throw RunConflictError.unknownRun(runId);
    throw RunConflictError.revision(runId, expectedRevision, current.revision);
  }

  private leaseFor(state: RunState): number | null {
    return state.status === 'running' ? this.clock() + this.claimLeaseMs : null;
  }

  private async current(runId: string): Promise<{ revision: number; status: string; leaseExpiresAt: number | undefined } | undefined> {
    const { rows } = await this.query('SELECT revision, status, lease_expires_at FROM toolwright_runs WHERE run_id = $1', [runId]);
    const row = rows[0];
    if (!row) return undefined;
    // node-postgres returns bigint as a string, PGlite as a number.
    return { revision: Number(row.revision), status: String(row.status), leaseExpiresAt: row.lease_expires_at == null ? undefined : Number(row.lease_expires_at) };
  }

  private async query(text: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }> {
    try {
      return await this.client.query(text, params);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && SCHEMA_BEHIND.has(code)) {
        throw new Error(
          `PostgresRunStore: the database does not have the tables this version needs (${(error as Error).message}). ` +
            'Run `await migrate(client)` from @toolwright/pg-store once, at start-up or in a deploy step, before the first run.',
          { cause: error },
        );
      }
      throw error;
    }
  }
}

/**
 * A row read back is data from outside the process: checked, so a corrupt or foreign row fails
 * loudly. `status` is the row's own column (a claim changes only it), the rest the state's text,
 * which must be the state of `runId`, the run the row is kept under: a state of another run
 * (a row copied or restored under the wrong id) would have a resume of one run decide, run and
 * journal the calls of another.
 */
function stored(row: Record<string, unknown>, runId: string): StoredRun {
  const state = stateObject(typeof row.state === 'string' ? parsedState(row.state, runId) : row.state, runId);
  const checked = checkRunState({ ...state, ...(row.status != null && { status: row.status }) });
  if (checked.runId !== runId) {
    throw new RunStateError(
      'malformed',
      `PostgresRunStore: the row of run ${JSON.stringify(runId)} holds the state of run ${JSON.stringify(checked.runId)} (copied or restored under the wrong id?). ` +
        `Nothing of it ran. Fix or remove that row of toolwright_runs before resuming ${JSON.stringify(runId)}.`,
    );
  }
  return { state: checked, revision: Number(row.revision) };
}

function stateObject(state: unknown, runId: string): object {
  if (typeof state === 'object' && state !== null && !Array.isArray(state)) return state;
  throw new RunStateError(
    'malformed',
    `PostgresRunStore: the row of run ${JSON.stringify(runId)} holds ${state === null ? 'null' : Array.isArray(state) ? 'a list' : `a ${typeof state}`} in its state column, not a run state. ` +
      `Nothing of it ran. Fix or remove that row of toolwright_runs before resuming ${JSON.stringify(runId)}.`,
  );
}

/** The state column's text as JSON; a row that is not JSON is malformed (no retry can read it), not a store failure. */
function parsedState(text: string, runId: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RunStateError(
      'malformed',
      `PostgresRunStore: the row of run ${JSON.stringify(runId)} does not hold JSON in its state column (${(error as Error).message}). ` +
        `Nothing of it ran. Fix or remove that row of toolwright_runs before resuming ${JSON.stringify(runId)}.`,
    );
  }
}
