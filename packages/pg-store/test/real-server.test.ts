import { fork } from 'node:child_process';
import { join } from 'node:path';
import { Pool } from 'pg';
import { runToolLoop, type RunStoreOptions } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { PostgresRunStore, migrate, migrations } from '@toolwright/pg-store';
import fc from 'fast-check';
import { checkRun, play, scenario } from '../../core/test/approval/exactly-once.property';
import { describeRunStoreConformance } from '../../core/test/approval/run-store.conformance';
import { checkClaimAndJournalInterleavings } from '../../core/test/approval/run-store.interleavings';
import { pausedRun } from '../../core/test/approval/run-states';
import { refundTools, replayClient } from '../../core/test/approval/fixtures/refunds';
import type { ContenderReport } from './support/contender';
import { describeOnPostgres, testPool } from './support/real-postgres';

// The store on a real PostgreSQL server, through pg's Pool: statements of one store go to
// several connections, and instances (pools of their own, processes of their own) race on the
// same rows, which PGlite's single connection in one process never does.

describeOnPostgres('PostgresRunStore on a real PostgreSQL server', (server) => {
  let pool: Pool;
  const pools: Pool[] = [];
  /** An app instance: a pool (connections) of its own on the same database. */
  const instance = (options: RunStoreOptions = {}) => {
    const own = testPool(new Pool({ ...server().connection, max: 2 }));
    pools.push(own);
    return new PostgresRunStore(own, options);
  };

  beforeAll(async () => {
    pool = testPool(new Pool({ ...server().connection, max: 8 }));
    // Several instances starting at once on a new database, each through its own connection.
    const firstMigrations = await Promise.all(Array.from({ length: 4 }, () => migrate(instancePool())));
    // Each migration applied once, by one of them (not necessarily the same one for all).
    expect(firstMigrations.flatMap((m) => m.applied).sort()).toEqual(migrations.map((m) => m.name).sort());
  });

  afterAll(async () => {
    await Promise.all([pool, ...pools].map((p) => p?.end()));
  });

  function instancePool(): Pool {
    const own = testPool(new Pool({ ...server().connection, max: 1 }));
    pools.push(own);
    return own;
  }

  describe('through one Pool of 8 connections', () => {
    describeRunStoreConformance((options: RunStoreOptions) => new PostgresRunStore(pool, options));

    it('keeps at most one claimer and the first result under random interleavings (100 runs)', async () => {
      await checkClaimAndJournalInterleavings((options) => new PostgresRunStore(pool, options), 100);
    });

    it('runs every write at most once, never undecided, through crashes and resumes (the exactly-once property, 60 runs)', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async (s) => checkRun(s, await play(s, (options) => new PostgresRunStore(pool, options)))),
        { numRuns: 60 },
      );
    }, 600_000);
  });

  describe('instances with connections of their own', () => {
    it('let exactly one of 8 concurrent claims through, on each of 20 runs', async () => {
      const stores = Array.from({ length: 8 }, () => instance());
      const states = Array.from({ length: 20 }, () => pausedRun());
      for (const state of states) await stores[0].create(state);
      await Promise.all(
        states.map(async (state) => {
          const settled = await Promise.allSettled(stores.map((store) => store.claim(state.runId)));
          expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
          for (const s of settled) {
            if (s.status === 'rejected') expect(s.reason).toMatchObject({ name: 'RunClaimError', problem: 'claimed', runId: state.runId });
          }
        }),
      );
    });

    it('let nobody in while a claim holds, and exactly one in once it lapsed', async () => {
      let now = 1_700_000_000_000;
      const stores = Array.from({ length: 4 }, () => instance({ claimLeaseMs: 1_000, clock: () => now }));
      const state = pausedRun();
      await stores[0].create(state);
      const holder = await stores[0].claim(state.runId);
      now += 999;
      const during = await Promise.allSettled(stores.map((store) => store.claim(state.runId)));
      expect(during.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
      now += 1;
      const after = await Promise.allSettled(stores.map((store) => store.claim(state.runId)));
      expect(after.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
      // The holder whose claim lapsed and was taken over can no longer write.
      await expect(stores[0].save({ ...holder.state, status: 'finished', pending: [] }, holder.revision)).rejects.toMatchObject({
        name: 'RunConflictError',
        problem: 'revision',
      });
    });

    it('never overwrite a journaled result, concurrently or later', async () => {
      const stores = Array.from({ length: 8 }, () => instance());
      const { runId } = pausedRun();
      const result = (text: string) => ({ type: 'tool_result' as const, tool_use_id: 'toolu_a', content: text });
      const answers = await Promise.all(stores.map((store, i) => store.recordResult(runId, result(`from ${i}`))));
      const winners = answers.filter((a) => a.recorded);
      expect(winners).toHaveLength(1);
      for (const answer of answers) expect(answer.result).toEqual(winners[0].result);
      expect(await stores[3].recordResult(runId, result('retried request'))).toEqual({ result: winners[0].result, recorded: false });
      expect(await stores[5].journaledResult(runId, 'toolu_a')).toEqual(winners[0].result);
    });

    it('see each other’s saves through the revision: a stale instance cannot overwrite', async () => {
      const [a, b] = [instance(), instance()];
      const state = pausedRun();
      await a.create(state);
      const seenByB = (await b.load(state.runId))!;
      await a.save({ ...state, used: { ...state.used, turns: 5 } }, 1);
      await expect(b.save(seenByB.state, seenByB.revision)).rejects.toMatchObject({ name: 'RunConflictError', problem: 'revision' });
      expect((await b.load(state.runId))!.state.used.turns).toBe(5);
    });
  });

  describe('processes of their own', () => {
    it('4 processes racing for the same 25 runs: each run claimed once and journaled once', async () => {
      const states = Array.from({ length: 25 }, () => pausedRun());
      for (const state of states) await new PostgresRunStore(pool).create(state);
      const runIds = states.map((s) => s.runId);
      const children = Array.from({ length: 4 }, () =>
        fork(join(__dirname, 'support', 'contender.ts'), [], { execArgv: ['-r', require.resolve('../../../jest/ts-child.js')], stdio: 'inherit' }),
      );
      const messages = children.map((child) => {
        const next: Array<(message: unknown) => void> = [];
        child.on('message', (message) => next.shift()?.(message));
        child.once('exit', (code) => code !== 0 && next.shift()?.(new Error(`contender exited with ${code}`)));
        return () => new Promise<unknown>((resolve) => next.push(resolve));
      });
      try {
        const ready = children.map((_, i) => messages[i]());
        for (const child of children) child.send({ connection: server().connection, runIds });
        expect(await Promise.all(ready)).toEqual(['ready', 'ready', 'ready', 'ready']);
        const reports = children.map((_, i) => messages[i]());
        for (const child of children) child.send('go');
        const done = (await Promise.all(reports)) as ContenderReport[];

        expect(new Set(done.map((r) => r.pid)).size).toBe(4);
        for (const runId of runIds) {
          expect(done.filter((r) => r.claimed.includes(runId))).toHaveLength(1);
          for (const report of done.filter((r) => !r.claimed.includes(runId))) expect(report.refused[runId]).toBe('RunClaimError:claimed');
          const recorders = done.filter((r) => r.recorded.includes(runId));
          expect(recorders).toHaveLength(1);
          const first = { type: 'tool_result', tool_use_id: 'toolu_a', content: `from ${recorders[0].pid}` };
          for (const report of done) expect(report.answers[runId]).toEqual(first);
        }
      } finally {
        for (const child of children) child.kill('SIGKILL');
      }
    }, 120_000);
  });

  describe('a journal write the server holds (a lock wait), with nothing aborted', () => {
    it('ends the run within the lease, and a second instance takes the run over once the claim lapses', async () => {
      const lease = 1_000;
      const store = instance({ claimLeaseMs: lease });
      const second = instance({ claimLeaseMs: lease });
      const { tools, provider } = refundTools('none');
      const script = (messages: readonly { role: string }[]) =>
        messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('refunded')) : turn('tool_use', toolUse('toolu_refund', 'refund', { order: 'A-1001', amount: 50 }));

      // Another session holds the journal table (a VACUUM FULL, a migration, a transaction left open).
      const locker = await pool.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE toolwright_results IN ACCESS EXCLUSIVE MODE');
        const error = await runToolLoop({ client: replayClient(script), model: 'claude-haiku-5-5', tools, store, prompt: 'refund' }).catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'RunStoreError', operation: 'recordResult', released: false, unjournaled: ['toolu_refund'] });
        expect((error as Error).message).toContain(`within the claim lease (${lease} ms)`);
        expect(provider.ran).toEqual(['toolu_refund']);

        // The heartbeat stopped with the run: the claim lapses and another instance takes it.
        await new Promise((resolve) => setTimeout(resolve, lease + 200));
        await expect(second.claim((error as { runId: string }).runId)).resolves.toMatchObject({ state: { status: 'running' } });
      } finally {
        await locker.query('ROLLBACK');
        locker.release();
      }
    }, 60_000);
  });
});
