import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { KILL_POINTS, type DriverMessage, type KillPoint, type WorkerConfig, type WorkerMessage } from './protocol';

export interface DriverOptions {
  runs: number;
  workers: number;
  /** Chance of a SIGKILL at each kill point a worker reaches. */
  killChance: number;
  /**
   * Each kill point is also killed once for sure, at a visit the seed picks from its first
   * `killEachPointWithin`: at a 1% chance alone, a run could end without a kill at one of them
   * (CI met a run with none at mid-write), and that window would go untested.
   */
  killEachPointWithin: number;
  /** Chance, every `randomKillEveryMs`, that a random worker is killed wherever it is. */
  randomKillChance: number;
  randomKillEveryMs: number;
  /** No more kills once this many happened, so the run always ends. */
  maxKills: number;
  timeoutMs: number;
  random: () => number;
}

/** What the driver saw, for the checks and the figures. */
export interface DriverReport {
  kills: Record<KillPoint | 'random', number>;
  restarts: number;
  /** How many times each tool_use id was in the window (its write committed or committing, its result not journaled) in a worker that was killed. */
  windowKills: Map<string, number>;
  /** Runs handed out to start again because their worker died before the start returned. */
  restartedStarts: number;
  refusals: Map<string, number>;
  /** Workers that were told their claim was lost (a renewal failed: they stalled past the lease and another took the run over). */
  lostClaimPids: Set<number>;
  elapsedMs: number;
  timedOut: boolean;
}

interface Worker {
  child: ChildProcess;
  /** tool_use ids whose write is committing or committed and whose result is not journaled yet. */
  open: Set<string>;
  startingKey?: number;
  killedAt?: KillPoint | 'random';
}

/**
 * Runs `workers` worker processes over `runs` runs, killing them with SIGKILL at the kill points
 * and at random moments and starting a new one for each killed, until every run is finished in
 * the database (or the time is up).
 */
export async function drive(options: DriverOptions, config: WorkerConfig, pool: Pool): Promise<DriverReport> {
  const report: DriverReport = {
    kills: { 'mid-claim': 0, 'mid-write': 0, 'after-write': 0, 'mid-journal': 0, random: 0 },
    restarts: 0,
    windowKills: new Map(),
    restartedStarts: 0,
    refusals: new Map(),
    lostClaimPids: new Set(),
    elapsedMs: 0,
    timedOut: false,
  };
  const keys = Array.from({ length: options.runs }, (_, i) => i);
  const started = new Set<number>();
  const workers = new Set<Worker>();
  let stopping = false;
  let kills = 0;
  const began = Date.now();
  const visits = Object.fromEntries(KILL_POINTS.map((point) => [point, 0])) as Record<KillPoint, number>;
  const sureKillAt = Object.fromEntries(KILL_POINTS.map((point) => [point, 1 + Math.floor(options.random() * options.killEachPointWithin)])) as Record<KillPoint, number>;

  const kill = (worker: Worker, at: KillPoint | 'random') => {
    kills += 1;
    report.kills[at] += 1;
    worker.killedAt = at;
    worker.child.kill('SIGKILL');
  };

  const spawnWorker = () => {
    const child = fork(join(__dirname, 'worker.js'), [], { env: { ...process.env, CHAOS_WORKER: JSON.stringify(config) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const worker: Worker = { child, open: new Set() };
    workers.add(worker);
    const reply = (message: DriverMessage) => {
      if (child.connected) child.send(message);
    };
    child.on('message', (message: WorkerMessage) => {
      switch (message.type) {
        case 'point': {
          if (message.point === 'mid-write' && message.toolUseId) worker.open.add(message.toolUseId);
          visits[message.point] += 1;
          const sure = !stopping && visits[message.point] === sureKillAt[message.point];
          const chance = stopping || kills >= options.maxKills ? 0 : options.killChance;
          if (sure || options.random() < chance) kill(worker, message.point);
          else reply({ type: 'go' });
          break;
        }
        case 'journaled':
          worker.open.delete(message.toolUseId);
          break;
        case 'want-key': {
          const key = stopping ? undefined : keys.shift();
          worker.startingKey = key;
          reply({ type: 'key', key: key ?? null });
          break;
        }
        case 'started':
          started.add(message.key);
          worker.startingKey = undefined;
          break;
        case 'refused':
          report.refusals.set(message.reason, (report.refusals.get(message.reason) ?? 0) + 1);
          if (message.reason === 'RunStoreError:claim_lost' && child.pid !== undefined) report.lostClaimPids.add(child.pid);
          break;
        case 'ready':
          break;
      }
    });
    child.once('exit', () => {
      workers.delete(worker);
      if (stopping) return;
      for (const id of worker.open) report.windowKills.set(id, (report.windowKills.get(id) ?? 0) + 1);
      if (worker.startingKey !== undefined && !started.has(worker.startingKey)) {
        keys.push(worker.startingKey);
        report.restartedStarts += 1;
      }
      if (worker.killedAt === undefined) report.refusals.set('worker exited without being killed', (report.refusals.get('worker exited without being killed') ?? 0) + 1);
      report.restarts += 1;
      spawnWorker();
    });
  };

  for (let i = 0; i < options.workers; i++) spawnWorker();
  const randomKills = setInterval(() => {
    if (stopping || kills >= options.maxKills || options.random() >= options.randomKillChance) return;
    const alive = [...workers].filter((w) => w.killedAt === undefined);
    const victim = alive[Math.floor(options.random() * alive.length)];
    if (victim) kill(victim, 'random');
  }, options.randomKillEveryMs);

  try {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (Date.now() - began > options.timeoutMs) {
        report.timedOut = true;
        break;
      }
      if (started.size < options.runs) continue;
      const { rows } = await pool.query(`SELECT count(*)::int AS open FROM toolwright_runs WHERE status <> 'finished'`);
      if (rows[0].open === 0) break;
    }
  } finally {
    stopping = true;
    clearInterval(randomKills);
    report.elapsedMs = Date.now() - began;
    await Promise.all([...workers].map((worker) => stop(worker.child)));
  }
  return report;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.send({ type: 'stop' } satisfies DriverMessage);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

