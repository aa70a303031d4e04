import type { SqlClient } from './sql-client';

/** One schema change, applied once; its statements are safe to run again if a first try stopped halfway. */
export interface Migration {
  id: number;
  name: string;
  statements: readonly string[];
}

const LEDGER = `CREATE TABLE IF NOT EXISTS toolwright_migrations (
  id integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/** The schema, in order. Run them with `migrate()`, or copy them into your own migration tool. */
export const migrations: readonly Migration[] = [
  {
    id: 1,
    name: 'runs and result journal',
    statements: [
      // `status` is derived from the state so the claim's WHERE clause can never disagree with it.
      `CREATE TABLE IF NOT EXISTS toolwright_runs (
  run_id text PRIMARY KEY,
  revision integer NOT NULL,
  state jsonb NOT NULL,
  status text GENERATED ALWAYS AS (state ->> 'status') STORED,
  lease_expires_at bigint,
  updated_at timestamptz NOT NULL DEFAULT now()
)`,
      `CREATE TABLE IF NOT EXISTS toolwright_results (
  run_id text NOT NULL,
  tool_use_id text NOT NULL,
  result jsonb NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, tool_use_id)
)`,
    ],
  },
  {
    id: 2,
    name: 'journal and states as JSON text',
    statements: [
      // `jsonb` refuses NUL and lone surrogates, so a result holding one could not be journaled
      // after its call ran. Both columns now hold JSON text (see json-text.ts), and `status`
      // becomes a column of its own, written with the state (a claim changes only it).
      `ALTER TABLE toolwright_runs ALTER COLUMN status DROP EXPRESSION IF EXISTS`,
      `ALTER TABLE toolwright_runs ALTER COLUMN state TYPE text USING state::text`,
      `ALTER TABLE toolwright_results ALTER COLUMN result TYPE text USING result::text`,
    ],
  },
];

/**
 * Postgres codes for "already there", seen when two instances create the same table at once:
 * 42P07 the table, 23505 its row in a catalog, 42710 its row type (`type "…" already exists`,
 * which a real server answers when the CREATEs race on separate connections).
 */
const ALREADY_CREATED = new Set(['42P07', '23505', '42710']);

/**
 * Brings the database up to the schema this package needs; running it again changes nothing.
 * Call it at start-up (or in a deploy step) before the first `PostgresRunStore` query.
 */
export async function migrate(client: SqlClient): Promise<{ applied: string[] }> {
  await runTolerant(client, LEDGER);
  const { rows } = await client.query('SELECT id FROM toolwright_migrations');
  const done = new Set(rows.map((row) => Number(row.id)));
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.id)) continue;
    for (const statement of migration.statements) await runTolerant(client, statement);
    const inserted = await client.query(
      'INSERT INTO toolwright_migrations (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
      [migration.id, migration.name],
    );
    if (inserted.rows.length > 0) applied.push(migration.name);
  }
  return { applied };
}

async function runTolerant(client: SqlClient, statement: string): Promise<void> {
  try {
    await client.query(statement);
  } catch (error) {
    if (!ALREADY_CREATED.has((error as { code?: string }).code ?? '')) throw error;
  }
}
