// Dispatch cost per call of the lesson's `buscar_pedido` inside each agent framework
// (fixtures/adapter-paths): the framework's own tool with a zod schema against toolwright's
// adapter for the same tool, each path timed in processes of its own.
import { ZOD_TOOL, adapterPaths } from './fixtures/adapter-paths';
import { INVALID, VALID } from './fixtures/timed-path';
import { timeInOwnProcesses } from './lib/own-processes';
import { fixed, isCi, markdownTable, ratio, writeSection } from './lib/report';

const CALLS = isCi ? 200 : 20_000;
// As in the dispatch benchmark: seven draws per path, the least read.
const ROUNDS = isCi ? 1 : 7;
// As many as a timed batch, as in the dispatch benchmark: fewer leave the first timed batch
// paying for the imports' garbage and compilations still under way.
const WARMUP_CALLS = isCi ? 50 : 20_000;

const paths = adapterPaths();

async function main(): Promise<void> {
  // Each path must answer what it should, or the numbers measure the wrong thing.
  for (const path of paths) {
    const text = JSON.stringify(await path.call(VALID));
    if (!text.includes('enviado')) throw new Error(`${path.framework} ${path.label}: valid input answered ${text}`);
  }
  const timed = await timeInOwnProcesses('adapters', { paths: paths.length, calls: CALLS, warmUp: WARMUP_CALLS, rounds: ROUNDS });
  const zodOf = (framework: string) => timed[paths.findIndex((p) => p.framework === framework && p.label === ZOD_TOOL)].least;
  const table = paths.map((path, i) => {
    const t = timed[i].least;
    const zod = zodOf(path.framework);
    return [path.framework, `\`${path.label}\``, fixed(t.valid, 2), fixed(t.invalid, 2), fixed(timed[i].median.valid, 2), ratio(t.valid, zod.valid), ratio(t.invalid, zod.invalid)];
  });
  writeSection(
    'adapters',
    [
      '## Agent-framework adapters: dispatch cost per call',
      '',
      `The lesson's \`buscar_pedido\` (no I/O) as each framework's own tool with a zod schema and as toolwright's adapter, ` +
        `called through the entry point the framework's loop calls for one tool call; ${CALLS.toLocaleString('en-US')} sequential calls ` +
        `after ${WARMUP_CALLS.toLocaleString('en-US')} warm-up calls of each, each path in a fresh process of its own per round, the paths ` +
        `in a rotating order; in each process valid and invalid in turn three times, the median of each; the least of ${ROUNDS} rounds ` +
        `(as in section 1), and the median of the rounds beside it. ` +
        `Valid \`${JSON.stringify(VALID)}\`, invalid \`${JSON.stringify(INVALID)}\`.`,
      '',
      markdownTable(['framework', 'tool', 'valid µs/call', 'invalid µs/call', 'valid, median of rounds', '÷ zod tool (valid)', '÷ zod tool (invalid)'], table),
      '',
      "The adapter rows pay for the container's whole pipeline (size limits, the JSON Schema check, class-validator, the result " +
        "cap, the model-facing message) and for the scheduler's hop to the next turn of the event loop, where it gathers the calls " +
        'of one step; the zod rows check the schema and call the function.',
    ].join('\n'),
  );
  for (const row of table) console.log(row.join('  '));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
