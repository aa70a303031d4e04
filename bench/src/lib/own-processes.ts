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

/**
 * Each path of `set` timed in fresh processes of its own, one per path per round, the paths in a
 * rotating order: a burst of load on this shared machine hits them all alike, and no path's code
 * runs beside another's. In one process, the paths that share code (core's validation functions,
 * the container) make it slower for each other, while a rival's code runs only in its own path.
 * The median µs per call of each path, by index.
 */
export async function timeInOwnProcesses(set: PathSet, { paths, calls, warmUp, rounds }: OwnProcessRounds): Promise<PerCall[]> {
  const samples = Array.from({ length: paths }, () => ({ valid: [] as number[], invalid: [] as number[] }));
  const probe = join(PROBES_DIR, 'path-probe.js');
  for (let round = 1; round <= rounds; round++) {
    progress(`${set} round ${round}/${rounds}`);
    for (let k = 0; k < paths; k++) {
      const index = (k + round) % paths;
      const run = await runNode([probe, set, String(index), String(calls), String(warmUp)]);
      const sample = JSON.parse(run.stdout.split('\n')[0]) as PerCall;
      samples[index].valid.push(sample.valid);
      samples[index].invalid.push(sample.invalid);
    }
  }
  return samples.map((s) => ({ valid: median(s.valid), invalid: median(s.invalid) }));
}
