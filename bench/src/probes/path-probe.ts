// One path of a benchmark's set (fixtures/dispatch-paths or fixtures/adapter-paths) in a process
// of its own: warm-up calls with valid and invalid input, then timed calls of each, valid and
// invalid in turn, three times (the median of each). Alone, a path's code shares no inline caches
// with the others' (the pipelines before and after, the floors and ours all call core's
// validation functions; the adapters all call the container) and pays for no garbage they leave.
// Only the named set is loaded. Prints `{"valid":µs,"invalid":µs}` per call.
// Usage: node path-probe.js <dispatch|adapters> <path index> <calls> <warm-up calls>
import { INVALID, VALID, type PathInput, type TimedPath } from '../fixtures/timed-path';
import { reportMaxRss } from '../lib/child';
import type { PathSet } from '../lib/own-processes';
import { median, timeMs } from '../lib/stats';

const REPEATS = 3;

const SETS: Record<PathSet, () => readonly TimedPath[]> = {
  dispatch: () => (require('../fixtures/dispatch-paths') as typeof import('../fixtures/dispatch-paths')).dispatchPaths().paths,
  adapters: () => (require('../fixtures/adapter-paths') as typeof import('../fixtures/adapter-paths')).adapterPaths(),
};

const [set, ...numbers] = process.argv.slice(2);
const [index, calls, warmUp] = numbers.map(Number);

function chosenPath(): TimedPath {
  const chosen = Object.hasOwn(SETS, set) ? SETS[set as PathSet]()[index] : undefined;
  if (chosen && calls > 0 && warmUp >= 0) return chosen;
  throw new Error(`usage: node path-probe.js <${Object.keys(SETS).join('|')}> <path index> <calls> <warm-up calls>; got ${process.argv.slice(2).join(' ')}`);
}

const path = chosenPath();

async function callMany(target: TimedPath, input: PathInput, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await target.call(input);
}

async function microsPerCall(input: PathInput): Promise<number> {
  return ((await timeMs(() => callMany(path, input, calls))) * 1000) / calls;
}

async function main(): Promise<void> {
  await callMany(path, VALID, warmUp);
  await callMany(path, INVALID, warmUp);
  const valid: number[] = [];
  const invalid: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    valid.push(await microsPerCall(VALID));
    invalid.push(await microsPerCall(INVALID));
  }
  process.stdout.write(`${JSON.stringify({ valid: median(valid), invalid: median(invalid) })}\n`);
  reportMaxRss();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
