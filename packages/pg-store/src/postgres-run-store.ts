import {
  DEFAULT_CLAIM_LEASE_MS,
  RunClaimError,
  RunConflictError,
  checkJournalResult,
  checkRunState,
  type ClaimOptions,
  type RecordedResult,
  type RunState,
  type RunStore,
  type RunStoreOptions,
  type StoredRun,
} from '@toolwright/core';
import type { SqlClient } from './sql-client';

/** A `tool_result` block, named through core so this package needs no SDK of its own. */
type ToolResultBlockParam = RecordedResult['result'];

/**
 * A `RunStore` in Postgres, shared by every instance that uses the same database. Each write is
 * one atomic statement: a claim is a conditional `UPDATE` (the row lock it takes makes a second
 * claimer wait, then see the first one's claim and match nothing), a journal write an
 * `INSERT … ON CONFLICT DO NOTHING`; a read afterwards only explains a write that matched
 * nothing. Run `migrate(client)` once before using it.
 */
export class PostgresRunStore implements RunStore {
  private readonly claimLeaseMs: number;
  private readonly clock: () => number;

  constructor(
    private readonly client: SqlClient,
    options: RunStoreOptions = {},
  ) {
    this.claimLeaseMs = options.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS;
    this.clock = options.clock ?? Date.now;
  }

  async create(state: RunState): Promise<StoredRun> {
    const checked = checkRunState(state);
    const { rows } = await this.client.query(
      `INSERT INTO toolwright_runs (run_id, revision, state, lease_expires_at) VALUES ($1, 1, $2::jsonb, $3::bigint)
       ON CONFLICT (run_id) DO NOTHING RETURNING state, revision`,
      [checked.runId, JSON.stringify(checked), this.leaseFor(checked)],
    );
    if (rows[0]) return stored(rows[0]);
    const current = await this.current(checked.runId);
    throw RunConflictError.exists(checked.runId, current?.revision ?? 0);
  }

  async load(runId: string): Promise<StoredRun | undefined> {
    const { rows } = await this.client.query('SELECT state, revision FROM toolwright_runs WHERE run_id = $1', [runId]);
    return rows[0] && stored(rows[0]);
  }

  async save(state: RunState, expectedRevision: number): Promise<StoredRun> {
    const checked = checkRunState(state);
    const { rows } = await this.client.query(
      `UPDATE toolwright_runs SET state = $2::jsonb, revision = revision + 1, lease_expires_at = $3::bigint, updated_at = now()
       WHERE run_id = $1 AND revision = $4::integer RETURNING state, revision`,
      [checked.runId, JSON.stringify(checked), this.leaseFor(checked), expectedRevision],
    );
    if (rows[0]) return stored(rows[0]);
    const current = await this.current(checked.runId);
    if (!current) throw RunConflictError.unknownRun(checked.runId);
    throw RunConflictError.revision(checked.runId, expectedRevision, current.revision);
  }

  async claim(runId: string, options: ClaimOptions = {}): Promise<StoredRun> {
    // The explanation is read after the UPDATE matched nothing; if by then the run has become
    // claimable again (its holder released it in between), the claim is simply tried again.
    for (;;) {
      const now = this.clock();
      const { rows } = await this.client.query(
        `UPDATE toolwright_runs
         SET state = jsonb_set(state, '{status}', '"running"'), revision = revision + 1, lease_expires_at = $2::bigint, updated_at = now()
         WHERE run_id = $1 AND status <> 'finished'
           AND (lease_expires_at IS NULL OR lease_expires_at <= $3::bigint)
           AND ($4::integer IS NULL OR revision = $4::integer)
         RETURNING state, revision`,
        [runId, now + this.claimLeaseMs, now, options.expectedRevision ?? null],
      );
      if (rows[0]) return stored(rows[0]);
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
    const checked = checkJournalResult(result);
    const { rows } = await this.client.query(
      `INSERT INTO toolwright_results (run_id, tool_use_id, result) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (run_id, tool_use_id) DO NOTHING RETURNING result`,
      [runId, checked.tool_use_id, JSON.stringify(checked)],
    );
    if (rows[0]) return { result: rows[0].result as ToolResultBlockParam, recorded: true };
    const journaled = await this.journaledResult(runId, checked.tool_use_id);
    // A journal row is never deleted, so the conflicting row is there to read.
    return { result: journaled as ToolResultBlockParam, recorded: false };
  }

  async journaledResult(runId: string, toolUseId: string): Promise<ToolResultBlockParam | undefined> {
    const { rows } = await this.client.query('SELECT result FROM toolwright_results WHERE run_id = $1 AND tool_use_id = $2', [runId, toolUseId]);
    return rows[0]?.result as ToolResultBlockParam | undefined;
  }

  async journaledResults(runId: string): Promise<Map<string, ToolResultBlockParam>> {
    const { rows } = await this.client.query('SELECT tool_use_id, result FROM toolwright_results WHERE run_id = $1 ORDER BY seq', [runId]);
    return new Map(rows.map((row) => [row.tool_use_id as string, row.result as ToolResultBlockParam]));
  }

  private leaseFor(state: RunState): number | null {
    return state.status === 'running' ? this.clock() + this.claimLeaseMs : null;
  }

  private async current(runId: string): Promise<{ revision: number; status: string; leaseExpiresAt: number | undefined } | undefined> {
    const { rows } = await this.client.query('SELECT revision, status, lease_expires_at FROM toolwright_runs WHERE run_id = $1', [runId]);
    const row = rows[0];
    if (!row) return undefined;
    // node-postgres returns bigint as a string, PGlite as a number.
    return { revision: Number(row.revision), status: String(row.status), leaseExpiresAt: row.lease_expires_at == null ? undefined : Number(row.lease_expires_at) };
  }
}

/** A row read back is data from outside the process: checked, so a corrupt or foreign row fails loudly. */
function stored(row: Record<string, unknown>): StoredRun {
  return { state: checkRunState(row.state), revision: Number(row.revision) };
}
