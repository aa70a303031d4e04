// The multi-process chaos test of @toolwright/pg-store on a real PostgreSQL server:
//   node packages/pg-testkit/dist/chaos/main.js      (after the build; scripts/ci/lines/pg-chaos.sh)
// N worker processes resume and run K runs with approvals while the driver SIGKILLs them at the
// kill points (mid-claim, mid-write, after the write before its journal row, mid-journal) and at
// random moments, and starts new ones. Then it checks the database and prints the figures and
// `pg-chaos: N passed, M failed`. Sizes: TOOLWRIGHT_CHAOS_RUNS (200), TOOLWRIGHT_CHAOS_WORKERS (4),
// TOOLWRIGHT_CHAOS_SEED, TOOLWRIGHT_CHAOS_TIMEOUT_S (480), TOOLWRIGHT_CHAOS_LEASE_MS (5000).
// A duplicate a lost claim explains (a live worker stalled past the lease, its renewals late,
// and another took the run over mid-call) is counted apart and reported, not hidden: it is the
// lease's limit, which ctx.toolUseId as an idempotency key downstream covers too.
import { startScriptedServer } from '@toolwright/core/testing';
import { PostgresRunStore, migrate } from '@toolwright/pg-store';
import { Pool } from 'pg';
import { startPostgres } from '../server/postgres-server';
import { chaosModel } from './chaos-model';
import { checkFinalState, type Check } from './checks';
import { drive } from './driver';
import { CHAOS_SCHEMA, KILL_POINTS } from './protocol';

const RUNS = positive('TOOLWRIGHT_CHAOS_RUNS', 200);
const WORKERS = positive('TOOLWRIGHT_CHAOS_WORKERS', 4);
const SEED = positive('TOOLWRIGHT_CHAOS_SEED', Date.now() % 1_000_000);
const TIMEOUT_S = positive('TOOLWRIGHT_CHAOS_TIMEOUT_S', 480);
/** Short, so a dead worker's run is taken over soon; the loop renews it while a batch runs. */
const CLAIM_LEASE_MS = positive('TOOLWRIGHT_CHAOS_LEASE_MS', 5_000);

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1, got ${JSON.stringify(raw)}.`);
  return value;
}

/** mulberry32: a seeded generator, so the seed printed names the kill decisions of a run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main(): Promise<number> {
  console.log(`pg-chaos: ${RUNS} runs, ${WORKERS} worker processes, seed ${SEED}, claim lease ${CLAIM_LEASE_MS} ms`);
  const server = await startPostgres();
  const pool = new Pool({ ...server.connection, max: 4 });
  pool.on('error', (error) => console.log(`(an idle connection failed: ${error.message})`));
  // Every run asks about 3 times, plus the requests of killed workers: room for all of them.
  const reply = chaosModel();
  const model = await startScriptedServer({ turns: Array.from({ length: RUNS * 12 }, () => reply) });
  try {
    await migrate(pool);
    await pool.query(CHAOS_SCHEMA);
    const report = await drive(
      {
        runs: RUNS,
        workers: WORKERS,
        killChance: 0.01,
        killEachPointWithin: 20,
        randomKillChance: 0.05,
        randomKillEveryMs: 1_000,
        maxKills: Math.max(20, Math.ceil(RUNS / 2)),
        timeoutMs: TIMEOUT_S * 1000,
        random: seeded(SEED),
      },
      { connection: server.connection, modelUrl: model.url, claimLeaseMs: CLAIM_LEASE_MS },
      pool,
    );

    const store = new PostgresRunStore(pool);
    const { rows: ids } = await pool.query('SELECT run_id FROM toolwright_runs ORDER BY run_id');
    const runs = [];
    for (const { run_id } of ids) runs.push((await store.load(run_id as string))!.state);
    const { rows: effects } = await pool.query('SELECT tool_use_id, array_agg(pid ORDER BY id) AS pids FROM chaos_effects GROUP BY tool_use_id');
    const { checks, figures } = checkFinalState(
      { runs, effects: new Map(effects.map((r) => [r.tool_use_id as string, r.pids as number[]])) },
      RUNS,
      report.windowKills,
      report.lostClaimPids,
    );

    const refusedRequests = model.requests.filter((r) => r.status === 400).map((r) => `request ${r.index} answered 400`);
    checks.push({ name: 'the model server accepted every request (no protocol violation)', problems: refusedRequests });
    checks.push({ name: `finished within ${TIMEOUT_S} s`, problems: report.timedOut ? [`timed out after ${(report.elapsedMs / 1000).toFixed(1)} s`] : [] });
    if (RUNS >= 50) {
      const missed = KILL_POINTS.filter((point) => report.kills[point] === 0).map((point) => `no worker was killed at ${point}`);
      checks.push({ name: 'every kill point was hit', problems: missed });
    }

    const killTotal = Object.values(report.kills).reduce((a, b) => a + b, 0);
    const figureRows: Array<[string, string]> = [
      ['runs (keys)', `${RUNS}`],
      ['runs in the store', `${figures.runs} (${figures.keysStartedTwice} keys started twice: a start killed before it returned its run id)`],
      ['worker processes', `${WORKERS} at a time, ${report.restarts} restarted`],
      ['kills (SIGKILL)', `${killTotal}: ${Object.entries(report.kills).map(([at, n]) => `${at} ${n}`).join(', ')}`],
      ['model requests', `${model.requests.length}`],
      ['approved writes', `${figures.writes} (${figures.denied} denied or skipped after a denial, none ran)`],
      ['side-effect rows', `${figures.effectRows}`],
      ['duplicates in the write-to-journal window', `${figures.duplicatesInWindow} (same ctx.toolUseId; ${report.windowKills.size} ids killed in the window)`],
      ['duplicates after a lost claim (a live worker stalled past the lease)', `${figures.duplicatesAfterLostClaim} (${report.lostClaimPids.size} workers lost a claim)`],
      ['duplicates outside both', `${figures.duplicatesOutsideWindow}`],
      ['refused resumes (lost races, moved-on runs)', refusals(report.refusals)],
      ['time', `${(report.elapsedMs / 1000).toFixed(1)} s`],
    ];
    console.log('\n| figure | value |\n| --- | --- |');
    for (const [name, value] of figureRows) console.log(`| ${name} | ${value} |`);
    console.log('');
    return printChecks(checks);
  } finally {
    await pool.end();
    await model.close().catch((error: unknown) => console.log(`(the model server: ${String(error)})`));
    await server.stop();
  }
}

function refusals(counts: ReadonlyMap<string, number>): string {
  if (counts.size === 0) return '0';
  return [...counts].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${reason} ×${n}`).join(', ');
}

function printChecks(checks: Check[]): number {
  for (const check of checks) {
    console.log(`${check.problems.length === 0 ? 'ok  ' : 'FAIL'} ${check.name}`);
    for (const problem of check.problems.slice(0, 10)) console.log(`       ${problem}`);
    if (check.problems.length > 10) console.log(`       ... and ${check.problems.length - 10} more`);
  }
  const failed = checks.filter((c) => c.problems.length > 0).length;
  console.log(`pg-chaos: ${checks.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    console.log('pg-chaos: 0 passed, 1 failed');
    process.exit(1);
  },
);
