// Dispatch cost per call of the lesson's `buscar_pedido` on each path of fixtures/dispatch-paths
// (the pipelines before and after the schema check, the floors, `ToolContainer.execute`, the
// Anthropic SDK's zod tool path, the AI SDK's and typia's), each timed in processes of its own,
// and the error text each sends the model for an invalid input. Then a CPU profile of
// execute on valid input, and the cold start of a process: checks compiled at build time, or by
// Ajv on each tool's first call.
import { join } from 'node:path';
import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version';
import type { ProfileFrame } from './probes/dispatch-profile-probe';
import type { ColdStart } from './probes/cold-start-probe';
import { NUMERO_PATTERN } from './fixtures/order-lookup.tools';
import { AFTER, BEFORE, FLOOR, OURS, SCHEMA_FLOOR, SDK_ZOD, dispatchPaths } from './fixtures/dispatch-paths';
import { INVALID, VALID } from './fixtures/timed-path';
import { runNode } from './lib/child';
import { timeInOwnProcesses, type PerCall, type RoundsPerCall } from './lib/own-processes';
import { PROBES_DIR } from './lib/paths';
import { median } from './lib/stats';
import { fixed, isCi, markdownTable, metIf, progress, ratio, writeSection } from './lib/report';

const CALLS = isCi ? 500 : 100_000;
// Seven draws per path: the least is then at the host's best speed unless nearly all its processes were slow.
const ROUNDS = isCi ? 1 : 7;
// As many as a timed batch: with fewer, the first batch after the imports paid a collection of
// their garbage and compilations still under way (0.4 µs more per call on every path).
const WARMUP_CALLS = isCi ? 100 : 100_000;

const { paths, container, toolUse, runZodTool, aiSdk, typia } = dispatchPaths();

/** Each path timed in fresh processes of its own (see `timeInOwnProcesses`). */
async function measure(): Promise<Map<string, RoundsPerCall>> {
  const perCall = await timeInOwnProcesses('dispatch', { paths: paths.length, calls: CALLS, warmUp: WARMUP_CALLS, rounds: ROUNDS });
  return new Map(paths.map((path, i) => [path.label, perCall[i]]));
}

/** The text the model reads back for one invalid input: it is paid for in tokens on every retry. */
async function errorTexts(): Promise<Array<{ label: string; text: string }>> {
  const [ours] = await container.execute([toolUse(INVALID)]);
  const sdk = await runZodTool(INVALID);
  const rivals = await Promise.all([aiSdk, typia].map(async (rival) => ({ label: rival.label, result: await rival.call(INVALID) })));
  if (!ours.is_error || !sdk.is_error || rivals.some((r) => !r.result.is_error)) throw new Error('an invalid input was accepted; the benchmark input is wrong');
  return [
    { label: OURS, text: String(ours.content) },
    { label: `SDK ${SDK_VERSION} betaZodTool (zod message)`, text: String(sdk.content) },
    ...rivals.map((r) => ({ label: r.label, text: r.result.content })),
  ];
}

const PROFILED_CALLS = isCi ? 2_000 : 300_000;
const PROFILE_FRAMES = 10;

/** The frames with the most self time in `execute` on valid input, from a process of their own. */
async function profile(): Promise<ProfileFrame[]> {
  progress('dispatch: CPU profile of execute');
  const run = await runNode([join(PROBES_DIR, 'dispatch-profile-probe.js'), String(PROFILED_CALLS), String(PROFILE_FRAMES)]);
  return JSON.parse(run.stdout.split('\n')[0]) as ProfileFrame[];
}

const COLD_ROUNDS = isCi ? 1 : 7;

/**
 * The first calls of fresh processes on the module tools-codegen wrote for the examples: with its
 * checks compiled at build time, and the same entries without them (an older manifest: Ajv is
 * loaded and the schema compiled on each tool's first call). Medians of the rounds.
 */
async function coldStart(): Promise<{ compiled: ColdStart; lazy: ColdStart }> {
  const runs = { compiled: [] as ColdStart[], lazy: [] as ColdStart[] };
  const probe = join(PROBES_DIR, 'cold-start-probe.js');
  for (let round = 1; round <= COLD_ROUNDS; round++) {
    progress(`dispatch: cold start ${round}/${COLD_ROUNDS}`);
    for (const mode of ['compiled', 'lazy'] as const) {
      runs[mode].push(JSON.parse((await runNode([probe, mode])).stdout) as ColdStart);
    }
  }
  const medianOf = (samples: ColdStart[]): ColdStart => ({
    importMs: median(samples.map((s) => s.importMs)),
    firstCallMs: median(samples.map((s) => s.firstCallMs)),
    secondToolFirstMs: median(samples.map((s) => s.secondToolFirstMs)),
    warmUs: median(samples.map((s) => s.warmUs)),
    secondToolWarmUs: median(samples.map((s) => s.secondToolWarmUs)),
    ajvLoaded: samples.some((s) => s.ajvLoaded),
  });
  return { compiled: medianOf(runs.compiled), lazy: medianOf(runs.lazy) };
}

async function main(): Promise<void> {
  const timed = await measure();
  const least = (label: string): PerCall => timed.get(label)!.least;
  const roundsMedian = (label: string): PerCall => timed.get(label)!.median;
  const before = least(BEFORE);
  const floor = least(FLOOR);
  const rows = paths.map((path) => {
    const { valid, invalid } = least(path.label);
    return [path.label, fixed(valid, 2), fixed(invalid, 2), fixed(roundsMedian(path.label).valid, 2), ratio(valid, before.valid), ratio(invalid, before.invalid), ratio(valid, floor.valid)];
  });
  const after = least(AFTER);
  const ours = least(OURS);
  const checkFloor = least(SCHEMA_FLOOR);
  const zod = least(SDK_ZOD);
  const typiaRow = least(typia.label);
  // The same ratio over the medians of the rounds, beside each goal's.
  const ofMedians = (label: string, against: string) => `${ratio(roundsMedian(label).valid, roundsMedian(against).valid)} over the medians`;
  const texts = await errorTexts();
  const frames = await profile();
  const cold = await coldStart();
  const { compiled, lazy } = cold;
  const coldBudgetMs = 2 * (compiled.warmUs / 1000 + compiled.importMs);
  const dispatchGoals = [
    `\`ToolContainer.execute\` on valid input faster than both the SDK's zod path and typia: **${metIf(ours.valid < zod.valid && ours.valid < typiaRow.valid)}** ` +
      `(${ratio(ours.valid, zod.valid)} the SDK's, ${ratio(ours.valid, typiaRow.valid)} typia's; ${ofMedians(OURS, SDK_ZOD)} and ${ofMedians(OURS, typia.label)})`,
    `\`ToolContainer.execute\` on valid input within 3× the schema-check floor: **${metIf(ours.valid <= 3 * checkFloor.valid)}** (${ratio(ours.valid, checkFloor.valid)}; ${ofMedians(OURS, SCHEMA_FLOOR)})`,
    `\`ToolContainer.execute\` on valid input within 2× the validation floor: **${metIf(ours.valid <= 2 * floor.valid)}** (${ratio(ours.valid, floor.valid)}; ${ofMedians(OURS, FLOOR)})`,
  ];
  const coldGoals = [
    `the first call of a process within 2× (a warm call of the same tool + the module's import): **${metIf(compiled.firstCallMs <= coldBudgetMs)}** ` +
      `(${fixed(compiled.firstCallMs, 2)} ms against ${fixed(coldBudgetMs, 2)} ms; ${ratio(compiled.firstCallMs, lazy.firstCallMs)} the first call of the older manifest)`,
    `no first-call cost per further tool (its first call within 0.1× what the older manifest's further tool pays): ` +
      `**${metIf(compiled.secondToolFirstMs <= 0.1 * lazy.secondToolFirstMs)}** (${ratio(compiled.secondToolFirstMs, lazy.secondToolFirstMs)}; ` +
      `${fixed(compiled.secondToolFirstMs * 1000, 0)} µs, ${ratio(compiled.secondToolFirstMs * 1000, compiled.secondToolWarmUs)} its warm call)`,
    `the run time loads no Ajv with compiled checks: **${metIf(!compiled.ajvLoaded)}** (the older manifest loads it: ${lazy.ajvLoaded ? 'yes' : 'no'})`,
  ];
  for (const line of [...dispatchGoals, ...coldGoals]) console.log(`dispatch goal: ${line.replace(/\*\*/g, '')}`);

  writeSection(
    'dispatch',
    [
      '## 1. Dispatch cost per call',
      '',
      `The lesson's \`buscar_pedido\` (pattern \`${NUMERO_PATTERN.source}\`, no I/O), ${CALLS.toLocaleString('en-US')} sequential calls ` +
        `after ${WARMUP_CALLS.toLocaleString('en-US')} warm-up calls of each, each path in a fresh process of its own per round (no path's code runs beside ` +
        `another's), the paths in a rotating order; in each process valid and invalid in turn three times, the median of each; the least of ${ROUNDS} rounds, ` +
        `which the goals read (a process runs at one speed for its whole life, set by where it lands on this host: see docs/benchmarks.md), ` +
        `and the median of the rounds beside it. Valid input \`${JSON.stringify(VALID)}\`, invalid \`${JSON.stringify(INVALID)}\`.`,
      '',
      markdownTable(['path', 'valid µs/call', 'invalid µs/call', 'valid, median of rounds', 'this ÷ before (valid)', 'this ÷ before (invalid)', 'this ÷ floor (valid)'], rows),
      '',
      `The validation pipeline after ÷ before: **${ratio(after.valid, before.valid)}** valid, **${ratio(after.invalid, before.invalid)}** invalid.`,
      '',
      `This tool's input class is only whitelisted (a \`@Param\` tool's, declared bare by tools-codegen) under a schema that refuses ` +
        `unknown keys, so execute leaves class-validator out: it could refuse nothing the schema check passed. The schema-check floor ` +
        `does only the check and the instance, and returns the method's promise: no limits, no result encoding, no timeout or cancellation.`,
      '',
      'Goals (valid input, this run):',
      '',
      ...dispatchGoals.map((line) => `- ${line}.`),
      '',
      `Where execute's time goes on valid input: the ${PROFILE_FRAMES} frames with the most self time in a CPU profile ` +
        `(V8's sampling profiler, ${PROFILED_CALLS.toLocaleString('en-US')} calls in a process of their own, after a warm-up):`,
      '',
      markdownTable(['function', 'file:line', 'self %'], frames.map((f) => [`\`${f.function}\``, `\`${f.location}\``, fixed(f.selfPercent)])),
      '',
      `Cold start (fresh processes, median of ${COLD_ROUNDS}): import the module tools-codegen wrote for the examples (two tools), build the ` +
        '`ToolContainer`, call `buscar_pedido`, then `cancelar_pedido` (a second tool; its guard refuses, after validation), then warm calls of each. ' +
        'The older manifest is the same module with the entries\' `inputCheck` left out, as tools-codegen wrote them before. ' +
        'The compiled checks test the tools\' pattern (`^A-\\d{4}$`) with plain code, not a `RegExp` (see docs/validation.md).',
      '',
      markdownTable(['manifest', 'import ms', 'first call ms', 'second tool, first call ms', 'warm call µs', 'second tool, warm call µs', 'Ajv loaded'], [
        ['checks compiled at build time', fixed(compiled.importMs, 2), fixed(compiled.firstCallMs, 2), fixed(compiled.secondToolFirstMs, 2), fixed(compiled.warmUs, 2), fixed(compiled.secondToolWarmUs, 2), compiled.ajvLoaded ? 'yes' : 'no'],
        ['older manifest: Ajv compiles on each first call', fixed(lazy.importMs, 2), fixed(lazy.firstCallMs, 2), fixed(lazy.secondToolFirstMs, 2), fixed(lazy.warmUs, 2), fixed(lazy.secondToolWarmUs, 2), lazy.ajvLoaded ? 'yes' : 'no'],
      ]),
      '',
      'Goals (cold start):',
      '',
      ...coldGoals.map((line) => `- ${line}.`),
      '',
      'Error text the model receives for the invalid input:',
      '',
      markdownTable(['path', 'characters'], texts.map((t) => [t.label, String(t.text.length)])),
      '',
      // A fence longer than any backtick run in the text: typia's feedback is itself a fenced block.
      ...texts.flatMap((t) => {
        const fence = '`'.repeat(Math.max(3, ...(t.text.match(/`+/g) ?? []).map((run) => run.length + 1)));
        return [`${t.label}:`, '', `${fence}text`, t.text, fence, ''];
      }),
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
