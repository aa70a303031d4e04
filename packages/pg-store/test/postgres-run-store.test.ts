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
    await checkClaimAndJournalInterleavings((options) => new PostgresRunStore(db, options), 100, 14);
  });

  it('gives back a state whose signature still verifies after jsonb reordered its keys', async () => {
    const secret = randomBytes(32);
    const signed = signRunState(pausedRun(), secret);
    const store = new PostgresRunStore(db);
    await store.create(signed.state);
    const loaded = (await store.load(signed.state.runId))!.state;
    expect(JSON.stringify(loaded)).not.toBe(JSON.stringify(signed.state));
    expect(verifyRunState({ state: loaded, signature: signed.signature }, secret)).toEqual(signed.state);
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

describe('migrate', () => {
  it('creates the tables once, even when two instances migrate at once, and changes nothing when run again', async () => {
    expect(firstMigrations.map((m) => m.applied).sort()).toEqual([[], ['runs and result journal']]);
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
