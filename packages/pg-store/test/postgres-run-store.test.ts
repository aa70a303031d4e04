import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { RUN_STATE_VERSION, RunStateError, signRunState, verifyRunState, type RunStoreOptions } from '@toolwright/core';
import { PostgresRunStore, migrate, migrations } from '@toolwright/pg-store';
import { describeRunStoreConformance } from '../../core/test/approval/run-store.conformance';
import { checkClaimAndJournalInterleavings } from '../../core/test/approval/run-store.interleavings';
import { pausedRun } from '../../core/test/approval/run-states';

// One embedded database for the whole file, on disk so the last test can restart it: creating a
// PGlite database takes seconds (much longer on a loaded machine); tests use fresh run ids.
const dataDir = mkdtempSync(join(tmpdir(), 'toolwright-pg-store-'));
let db: PGlite;
let firstMigrations: { applied: string[] }[];

beforeAll(async () => {
  db = new PGlite(dataDir);
  // Two instances starting at once on a new database.
  firstMigrations = await Promise.all([migrate(db), migrate(db)]);
}, 180_000);

afterAll(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('PostgresRunStore on PGlite', () => {
  describeRunStoreConformance((options: RunStoreOptions) => new PostgresRunStore(db, options));

  it('keeps at most one claimer and the first result under random interleavings (100 runs)', async () => {
    await checkClaimAndJournalInterleavings((options) => new PostgresRunStore(db, options), 100);
  });

  it('gives back a state whose signature still verifies', async () => {
    const secret = randomBytes(32);
    const signed = signRunState(pausedRun(), secret);
    const store = new PostgresRunStore(db);
    await store.create(signed.state);
    const loaded = (await store.load(signed.state.runId))!.state;
    expect(verifyRunState({ state: loaded, signature: signed.signature }, secret)).toEqual(signed.state);
  });

  it('keeps states and results as ASCII JSON text, so no server encoding or jsonb rule can refuse them', async () => {
    const store = new PostgresRunStore(db);
    const state = pausedRun();
    await store.create(state);
    await store.recordResult(state.runId, { type: 'tool_result', tool_use_id: 'toolu_a', content: 'nul \u0000 lone \ud800 😀 é' });
    const { rows } = await db.query<{ state: string; result: string }>(
      'SELECT r.state, j.result FROM toolwright_runs r JOIN toolwright_results j USING (run_id) WHERE run_id = $1',
      [state.runId],
    );
    for (const text of [rows[0].state, rows[0].result]) expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(rows[0].result).toContain('nul \\u0000 lone \\ud800 \\ud83d\\ude00 \\u00e9');
  });

  it('refuses a row that is not a state this version wrote', async () => {
    const store = new PostgresRunStore(db);
    await db.query(`INSERT INTO toolwright_runs (run_id, revision, state) VALUES ('run_foreign', 1, $1::jsonb)`, [
      JSON.stringify({ ...pausedRun(), runId: 'run_foreign', version: 3 }),
    ]);
    await expect(store.load('run_foreign')).rejects.toThrow(RunStateError);
  });

  it('reads a row a version 1 build saved as a current state without an owner, and claims it', async () => {
    const store = new PostgresRunStore(db);
    const saved = { ...pausedRun(), version: 1 };
    await db.query(`INSERT INTO toolwright_runs (run_id, revision, state) VALUES ($1, 1, $2::jsonb)`, [saved.runId, JSON.stringify(saved)]);
    expect((await store.load(saved.runId))!.state).toEqual({ ...saved, version: RUN_STATE_VERSION });
    const claimed = await store.claim(saved.runId);
    expect(claimed.state).toMatchObject({ status: 'running', version: RUN_STATE_VERSION });
    expect(claimed.state).not.toHaveProperty('owner');
  });
});

describe('PostgresRunStore and its client', () => {
  it('refuses, when built, a client it cannot send statements to', () => {
    for (const client of [undefined, null, {}, { query: 'SELECT 1' }]) {
      expect(() => new PostgresRunStore(client as never)).toThrow(
        new TypeError('PostgresRunStore: pass a client with query(text, params), such as a pg Pool or a PGlite database.'),
      );
    }
  });

  it('refuses a lease it cannot use, naming the store', () => {
    expect(() => new PostgresRunStore(db, { claimLeaseMs: 0 })).toThrow(/^PostgresRunStore: claimLeaseMs must be/);
  });

  it('passes on, as it came, a database error that is not about a missing schema', async () => {
    const lost = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const store = new PostgresRunStore({ query: () => Promise.reject(lost) });
    await expect(store.load('run_1')).rejects.toBe(lost);
    await expect(store.claim('run_1')).rejects.toBe(lost);
  });

  it('takes a claim that lost its first try to a holder who released the run before it looked why', async () => {
    const holder = new PostgresRunStore(db);
    const state = pausedRun();
    await holder.create(state);
    const held = await holder.claim(state.runId);
    let released: Promise<unknown> | undefined;
    // The claimer's UPDATE found the run held; the holder releases it before the claimer reads why.
    const claimer = new PostgresRunStore({
      query: async (text, params) => {
        if (text.startsWith('SELECT revision, status, lease_expires_at') && !released) {
          released = holder.release({ ...held.state, status: 'pending' }, held.revision);
          await released;
        }
        return db.query(text, params);
      },
    });
    expect(await claimer.claim(state.runId)).toEqual({ state: { ...state, status: 'running' }, revision: held.revision + 2 });
    expect(released).toBeDefined();
  });
});

describe('migrate', () => {
  it('creates the tables once, even when two instances migrate at once, and changes nothing when run again', async () => {
    expect(firstMigrations.map((m) => m.applied).sort()).toEqual([[], migrations.map((m) => m.name)]);
    expect(await migrate(db)).toEqual({ applied: [] });
    const { rows } = await db.query<{ id: number }>('SELECT id FROM toolwright_migrations ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual(migrations.map((m) => m.id));
  });

  it('runs each migration’s statements safely a second time, as after a migration stopped halfway: the schema and the data stay', async () => {
    const columns = () =>
      db.query(`SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name LIKE 'toolwright_%' ORDER BY 1, 2`);
    const store = new PostgresRunStore(db);
    const state = pausedRun();
    await store.create(state);
    const result = { type: 'tool_result' as const, tool_use_id: 'toolu_a', content: 'kept' };
    await store.recordResult(state.runId, result);
    const before = (await columns()).rows;
    expect(before.length).toBeGreaterThan(0);

    for (const statement of migrations.flatMap((m) => m.statements)) await db.query(statement);

    expect((await columns()).rows).toEqual(before);
    expect(await store.load(state.runId)).toEqual({ state, revision: 1 });
    expect(await store.journaledResult(state.runId, 'toolu_a')).toEqual(result);
  });
});

describe('a database behind this version', () => {
  // A schema of its own on the same database: the store's tables are found through search_path.
  const inSchema = async (schema: string, body: () => Promise<void>) => {
    await db.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
    try {
      await body();
    } finally {
      await db.exec('SET search_path TO public');
    }
  };

  it('says to run migrate() when the tables are missing, instead of the raw Postgres error', async () => {
    await inSchema('never_migrated', async () => {
      const store = new PostgresRunStore(db);
      const error = await store.load('run_1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/toolwright_runs" does not exist\). Run `await migrate\(client\)` from @toolwright\/pg-store once/);
      expect((error as Error).cause).toMatchObject({ code: '42P01' });
      await expect(store.create(pausedRun())).rejects.toThrow(/Run `await migrate\(client\)`/);
      await expect(store.recordResult('run_1', { type: 'tool_result', tool_use_id: 'toolu_a', content: 'x' })).rejects.toThrow(/migrate\(client\)/);
    });
  });

  it('says to run migrate() when a table lacks a column this version needs', async () => {
    await inSchema('missing_column', async () => {
      await db.query('CREATE TABLE toolwright_runs (run_id text PRIMARY KEY, revision integer NOT NULL)');
      const store = new PostgresRunStore(db);
      const error = await store.load('run_1').catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/column "state" does not exist\). Run `await migrate\(client\)`/);
      expect((error as Error).cause).toMatchObject({ code: '42703' });
    });
  });

  it('migrates tables written by the first schema (jsonb) and keeps their runs, claims and results', async () => {
    await inSchema('first_schema', async () => {
      for (const statement of migrations[0].statements) await db.query(statement);
      const state = pausedRun();
      const result = { type: 'tool_result' as const, tool_use_id: 'toolu_a', content: 'refunded R-1 — ✓' };
      await db.query('INSERT INTO toolwright_runs (run_id, revision, state) VALUES ($1, 1, $2::jsonb)', [state.runId, JSON.stringify(state)]);
      await db.query('INSERT INTO toolwright_results (run_id, tool_use_id, result) VALUES ($1, $2, $3::jsonb)', [state.runId, 'toolu_a', JSON.stringify(result)]);
      const store = new PostgresRunStore(db);
      // Before migrating, a write is refused with the fix named, not with Postgres's words alone.
      await expect(store.create(pausedRun())).rejects.toThrow(/Run `await migrate\(client\)`/);

      await db.query('CREATE TABLE toolwright_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      await db.query(`INSERT INTO toolwright_migrations (id, name) VALUES (1, 'runs and result journal')`);
      expect(await migrate(db)).toEqual({ applied: ['journal and states as JSON text'] });
      expect(await store.load(state.runId)).toEqual({ state, revision: 1 });
      expect(await store.journaledResult(state.runId, 'toolu_a')).toEqual(result);
      const claimed = await store.claim(state.runId);
      expect(claimed).toEqual({ state: { ...state, status: 'running' }, revision: 2 });
      const odd = { type: 'tool_result' as const, tool_use_id: 'toolu_b', content: 'a\u0000b\udfff' };
      expect(await store.recordResult(state.runId, odd)).toEqual({ result: odd, recorded: true });
      expect(await store.journaledResult(state.runId, 'toolu_b')).toEqual(odd);
    });
  });
});

describe('a restart', () => {
  it('keeps runs, claims and journaled results: a new process on the same directory carries on', async () => {
    let now = 1_700_000_000_000;
    const options = { claimLeaseMs: 1_000, clock: () => now };
    const state = pausedRun();
    const result = { type: 'tool_result' as const, tool_use_id: 'toolu_a', content: 'refunded R-1' };
    const before = new PostgresRunStore(db, options);
    await before.create(state);
    await before.claim(state.runId);
    await before.recordResult(state.runId, result);

    await db.close();
    db = new PGlite(dataDir);

    expect(await migrate(db)).toEqual({ applied: [] });
    const after = new PostgresRunStore(db, options);
    expect(await after.load(state.runId)).toEqual({ state: { ...state, status: 'running' }, revision: 2 });
    await expect(after.claim(state.runId)).rejects.toMatchObject({ problem: 'claimed' });
    now += 1_000;
    await expect(after.claim(state.runId)).resolves.toMatchObject({ revision: 3 });
    expect(await after.recordResult(state.runId, { ...result, content: 'ran again' })).toEqual({ result, recorded: false });
  });
});
