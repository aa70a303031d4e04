import { join } from 'node:path';
import { runNode } from './child';
import { PROBES_DIR } from './paths';
import { median } from './stats';
import { progress } from './report';

/** The sets of paths `probes/path-probe` can time: fixtures/dispatch-paths and fixtures/adapter-paths. */
export type PathSet = 'dispatch' | 'adapters';

export interface PerCall {
  valid: number;
  invalid: number;
}

export interface OwnProcessRounds {
  /** How many paths the set has: each is timed by its index. */
  paths: number;
  calls: number;
  warmUp: number;
  rounds: number;
}

/** Each path's µs per call over its rounds. */
export interface RoundsPerCall {
  /**
   * The least of the rounds, which the goals read. A process runs its whole life at one speed,
   * set by where it lands: on a host whose vCPUs differ (or whose core another machine is busy
   * on), a path's median is a draw between speeds, and the same code's ratios moved from met to
   * not met between two full runs (docs/benchmarks.md). The least is each path at the host's best
   * speed, and every path gets as many draws.
   */
  least: PerCall;
  /** The median of the rounds, reported beside the least. */
  median: PerCall;
}

/**
 * Each path of `set` timed in fresh processes of its own, one per path per round, the paths in a
 * rotating order: a burst of load on this shared machine hits them all alike, and no path's code
 * runs beside another's. In one process, the paths that share code (core's validation functions,
 * the container) make it slower for each other, while a rival's code runs only in its own path.
 * The least and the median µs per call of each path, by index.
 */
export async function timeInOwnProcesses(set: PathSet, { paths, calls, warmUp, rounds }: OwnProcessRounds): Promise<RoundsPerCall[]> {
  const draws = Array.from({ length: paths }, (): PerCall[] => []);
  const probe = join(PROBES_DIR, 'path-probe.js');
  for (let round = 1; round <= rounds; round++) {
    progress(`${set} round ${round}/${rounds}`);
    for (let k = 0; k < paths; k++) {
      const index = (k + round) % paths;
      const run = await runNode([probe, set, String(index), String(calls), String(warmUp)]);
      const sample = JSON.parse(run.stdout.split('\n')[0]) as PerCall;
      draws[index].push(sample);
      // Each draw in the log, so a run's spread between speeds can be read back.
      progress(`${set} round ${round}/${rounds}: path ${index} valid ${sample.valid.toFixed(3)} µs, invalid ${sample.invalid.toFixed(3)} µs`);
    }
  }
  return draws.map(roundsPerCall);
}

/**
 * One path's draws read as the report reads them: valid and invalid each on its own, so the least
 * valid and the least invalid may come from different rounds.
 */
export function roundsPerCall(draws: readonly PerCall[]): RoundsPerCall {
  if (draws.length === 0) throw new RangeError('a path with no rounds: time it at least once');
  const valid = draws.map((d) => d.valid);
  const invalid = draws.map((d) => d.invalid);
  return {
    least: { valid: Math.min(...valid), invalid: Math.min(...invalid) },
    median: { valid: median(valid), invalid: median(invalid) },
  };
}
