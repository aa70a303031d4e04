// One path of the dispatch benchmark in a process of its own: warm-up calls with valid and invalid
// input, then timed calls of each, valid and invalid in turn, three times (the median of each).
// Alone, a path's code shares no inline caches with the others' (the pipelines before and after,
// the floors and ours all call core's validation functions) and pays for no garbage they leave.
// Prints `{"valid":µs,"invalid":µs}` per call.
// Usage: node dispatch-path-probe.js <path index> <calls> <warm-up calls>
import { INVALID, VALID, dispatchPaths, type DispatchInput, type DispatchPath } from '../fixtures/dispatch-paths';
import { reportMaxRss } from '../lib/child';
import { median, timeMs } from '../lib/stats';

const REPEATS = 3;

const [index, calls, warmUp] = process.argv.slice(2).map(Number);
const path = dispatchPaths().paths[index];
if (!path || !(calls > 0) || !(warmUp >= 0)) throw new Error(`usage: node dispatch-path-probe.js <path index> <calls> <warm-up calls>; got ${process.argv.slice(2).join(' ')}`);

async function callMany(target: DispatchPath, input: DispatchInput, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await target.call(input);
}

async function microsPerCall(input: DispatchInput): Promise<number> {
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
