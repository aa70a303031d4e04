// Codegen: tools-codegen on synthetic projects of N tool methods, against a bare ts-morph floor
// ts-json-schema-generator and `tsc --noEmit` of the same project, each in its own process; then
// --watch regeneration time.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { runNode, type ChildRun } from './lib/child';
import { CODEGEN_CLI, PROBES_DIR, TSC, WORK_DIR } from './lib/paths';
import { fixed, isCi, markdownTable, megabytes, metIf, progress, ratio, writeSection } from './lib/report';
import { median } from './lib/stats';
import { writeSyntheticProject, type SyntheticProject } from './lib/synthetic-project';
import { waitUntil } from './lib/wait';

/**
 * Options for a run of this benchmark alone (what `pnpm bench` runs takes none):
 * `--sizes=100,2000` measures only those N (the watch at the largest), `--watch-only` times the
 * watch at the largest size and runs no contender, `--pair` runs only tools-codegen and the
 * ts-morph floor (the table leaves the others out).
 */
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const sizesOption = option('sizes');
const watchOnly = process.argv.includes('--watch-only');
const pairOnly = process.argv.includes('--pair');
const SIZES = sizesOption ? sizesOption.split(',').map(Number) : isCi ? [1, 10] : [1, 10, 100, 500, 2_000];
/** Issue 28: no slower than `tsc --noEmit` of the same project at these sizes. */
const TSC_GOAL_SIZES = isCi ? [1, 10] : [1, 10, 100];
const ROUNDS = isCi ? 1 : 5;
const WATCH_CHANGES = isCi ? 1 : 5;
/** Issue 17: regenerating after a one-file edit at 2,000 tools. */
const WATCH_GOAL_MS = 300;
/** Each options type has five properties plus the two of its nested object. */
const PROPERTIES_PER_METHOD = 7;

interface Contender {
  label: string;
  run(project: SyntheticProject, typesFile: string): Promise<ChildRun>;
  /** Guards against a contender that silently did less work than the others. */
  check(project: SyntheticProject, run: ChildRun): void;
}

const CODEGEN = 'tools-codegen';
const FLOOR = 'ts-morph floor';
const TSJSG = 'ts-json-schema-generator';
const TSC_NOEMIT = 'tsc --noEmit';

/** The checks module tools-codegen writes beside the manifest module. */
const checksModule = (project: SyntheticProject) => project.generatedModule.replace(/\.ts$/, '.checks.ts');

const contenders: Contender[] = [
  {
    label: CODEGEN,
    run: (project) => runNode([CODEGEN_CLI, '--project', project.tsconfig, '--out', project.generatedModule]),
    check: (project) => {
      const source = readFileSync(project.generatedModule, 'utf8');
      const tools = source.match(/\bmethod: ['"]/g)?.length ?? 0;
      if (tools !== project.optionTypes.length) throw new Error(`${CODEGEN} emitted ${tools} of ${project.optionTypes.length} tools`);
    },
  },
  {
    label: FLOOR,
    run: (project) => runNode([join(PROBES_DIR, 'ts-morph-floor.js'), project.tsconfig]),
    check: (project, run) => {
      const expected = project.optionTypes.length * PROPERTIES_PER_METHOD;
      if (!run.stdout.includes(`properties=${expected} `)) throw new Error(`${FLOOR} did not read ${expected} properties: ${run.stdout}`);
    },
  },
  {
    label: TSJSG,
    run: (project, typesFile) => runNode([join(PROBES_DIR, 'ts-json-schema-generator.js'), project.tsconfig, typesFile]),
    check: () => undefined, // the probe itself fails unless every type got a schema
  },
  {
    // What a build of the project costs anyway: the whole program parsed and type-checked.
    label: TSC_NOEMIT,
    run: (project) => runNode([TSC, '--noEmit', '-p', project.tsconfig]),
    check: () => undefined, // runNode fails on a type error
  },
];

interface Measured {
  wallMs: number;
  maxRssBytes: number;
}

async function measureSize(methods: number): Promise<{ project: SyntheticProject; results: Map<string, Measured> }> {
  const project = writeSyntheticProject(join(WORK_DIR, `codegen-${methods}`), methods);
  const typesFile = join(WORK_DIR, `codegen-${methods}.types.json`);
  writeFileSync(typesFile, JSON.stringify(project.optionTypes));
  const measured = pairOnly ? contenders.filter((c) => c.label === CODEGEN || c.label === FLOOR) : contenders;
  const samples = new Map(measured.map((c) => [c.label, [] as ChildRun[]]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const contender of measured) {
      progress(`codegen N=${methods} round ${round}/${ROUNDS}: ${contender.label}`);
      // The generated modules live in src: left in place, the baselines would load them too.
      rmSync(project.generatedModule, { force: true });
      rmSync(checksModule(project), { force: true });
      const run = await contender.run(project, typesFile);
      contender.check(project, run);
      samples.get(contender.label)!.push(run);
    }
  }
  const results = new Map(
    [...samples].map(([label, runs]) => [
      label,
      { wallMs: median(runs.map((r) => r.wallMs)), maxRssBytes: median(runs.map((r) => r.maxRssBytes)) },
    ]),
  );
  return { project, results };
}

/**
 * Time from rewriting one tool file to the regenerated module on disk, with `--watch` running.
 * Each change edits a description, so the output must change.
 */
async function measureWatch(project: SyntheticProject): Promise<number[]> {
  rmSync(project.generatedModule, { force: true });
  rmSync(checksModule(project), { force: true });
  const watcher = spawn(process.execPath, [CODEGEN_CLI, '--project', project.tsconfig, '--out', project.generatedModule, '--watch'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  watcher.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<never>((_, reject) =>
    watcher.on('exit', (code) => reject(new Error(`tools-codegen --watch exited early (${code}):\n${stderr}`))),
  );
  exited.catch(() => undefined);
  try {
    // The module is megabytes at 2,000 tools: it is read again only once its size or mtime moved,
    // so that polling does not take the CPU the watcher needs.
    let seen = '';
    let text = '';
    const read = () => {
      const stat = statSync(project.generatedModule, { throwIfNoEntry: false });
      const stamp = stat ? `${stat.size}:${stat.mtimeMs}` : '';
      if (stamp !== seen) {
        seen = stamp;
        text = stat ? readFileSync(project.generatedModule, 'utf8') : '';
      }
      return text;
    };
    const complete = (text: string) => text.endsWith(']);\n');
    await Promise.race([waitUntil(() => complete(read()), 'the first generation', 10 * 60_000, 20), exited]);
    // Give the watcher time to arm itself after its first run.
    await sleep(1_000);
    const edited = project.toolFiles[0];
    const original = readFileSync(edited, 'utf8');
    const timings: number[] = [];
    for (let change = 1; change <= WATCH_CHANGES; change++) {
      progress(`codegen --watch: change ${change}/${WATCH_CHANGES}`);
      const marker = `Revision ${change} of this catalog.`;
      writeFileSync(edited, original.replace('Searches catalog 0 with query 0.', `Searches catalog 0 with query 0. ${marker}`));
      const started = performance.now();
      await Promise.race([
        waitUntil(() => {
          const text = read();
          return text.includes(marker) && complete(text);
        }, `regeneration ${change}`, 5 * 60_000),
        exited,
      ]);
      timings.push(performance.now() - started);
      // Let trailing file events settle so the next change is timed on its own.
      await sleep(500);
    }
    writeFileSync(edited, original);
    return timings;
  } finally {
    watcher.removeAllListeners('exit');
    watcher.kill();
  }
}

async function main(): Promise<void> {
  if (watchOnly) {
    const methods = SIZES[SIZES.length - 1];
    const timings = await measureWatch(writeSyntheticProject(join(WORK_DIR, `codegen-${methods}`), methods));
    console.log(`codegen --watch at N=${methods}: median ${fixed(median(timings), 0)} ms (${timings.map((t) => fixed(t, 0)).join(', ')} ms); goal ${WATCH_GOAL_MS} ms`);
    return;
  }
  const bySize: Array<{ methods: number; results: Map<string, Measured> }> = [];
  let largest: SyntheticProject | undefined;
  for (const methods of SIZES) {
    const { project, results } = await measureSize(methods);
    bySize.push({ methods, results });
    largest = project;
  }
  const watchTimings = await measureWatch(largest!);
  if (pairOnly) {
    for (const { methods, results } of bySize) {
      const codegen = results.get(CODEGEN)!.wallMs;
      const floor = results.get(FLOOR)!.wallMs;
      console.log(`codegen N=${methods}: ${CODEGEN} ${fixed(codegen, 0)} ms, ${FLOOR} ${fixed(floor, 0)} ms: ${ratio(codegen, floor)} the floor`);
    }
    console.log(`codegen --watch at N=${largest!.optionTypes.length}: median ${fixed(median(watchTimings), 0)} ms (${watchTimings.map((t) => fixed(t, 0)).join(', ')} ms)`);
    return;
  }

  const sizeRows = bySize.map(({ methods, results }) => {
    const codegen = results.get(CODEGEN)!;
    const floor = results.get(FLOOR)!;
    const tsjsg = results.get(TSJSG)!;
    const tsc = results.get(TSC_NOEMIT)!;
    return [
      methods.toLocaleString('en-US'),
      fixed(codegen.wallMs, 0),
      megabytes(codegen.maxRssBytes),
      fixed(floor.wallMs, 0),
      megabytes(floor.maxRssBytes),
      fixed(tsjsg.wallMs, 0),
      megabytes(tsjsg.maxRssBytes),
      fixed(tsc.wallMs, 0),
      ratio(codegen.wallMs, floor.wallMs),
      ratio(codegen.wallMs, tsjsg.wallMs),
      ratio(codegen.wallMs, tsc.wallMs),
    ];
  });
  const first = bySize[0];
  const last = bySize[bySize.length - 1];
  const growthRows = contenders.map(({ label }) => {
    const small = first.results.get(label)!.wallMs;
    const large = last.results.get(label)!.wallMs;
    const perMethod = (large - small) / (last.methods - first.methods);
    return [label, fixed(small, 0), fixed(large, 0), ratio(large, small), fixed(perMethod, 2)];
  });
  const worstVsFloor = Math.max(...bySize.map(({ results }) => results.get(CODEGEN)!.wallMs / results.get(FLOOR)!.wallMs));
  const alwaysFaster = bySize.every(({ results }) => results.get(CODEGEN)!.wallMs < results.get(TSJSG)!.wallMs);
  const worstVsTsjsg = Math.max(...bySize.map(({ results }) => results.get(CODEGEN)!.wallMs / results.get(TSJSG)!.wallMs));
  const tscSizes = bySize.filter(({ methods }) => TSC_GOAL_SIZES.includes(methods));
  const worstVsTsc = Math.max(...tscSizes.map(({ results }) => results.get(CODEGEN)!.wallMs / results.get(TSC_NOEMIT)!.wallMs));
  const watchMs = median(watchTimings);
  const fullRunMs = last.results.get(CODEGEN)!.wallMs;
  const goals = [
    ...(tscSizes.length > 0
      ? [`within 1.0× of \`${TSC_NOEMIT}\` of the same project at N = ${tscSizes.map((s) => s.methods).join(', ')}: **${metIf(worstVsTsc <= 1)}** (worst ${ratio(worstVsTsc, 1)})`]
      : []),
    `within 1.25× of the ts-morph floor: **${metIf(worstVsFloor <= 1.25)}** (worst ${ratio(worstVsFloor, 1)})`,
    `faster than ${TSJSG} at every N: **${metIf(alwaysFaster)}** (worst ${ratio(worstVsTsjsg, 1)})`,
    `\`--watch\` within ${WATCH_GOAL_MS} ms of a one-file edit at N=${last.methods}: **${metIf(watchMs <= WATCH_GOAL_MS)}** ` +
      `(${ratio(watchMs, WATCH_GOAL_MS)} the goal; ${ratio(watchMs, fullRunMs)} a full run)`,
  ];
  for (const goal of goals) console.log(`codegen goal: ${goal.replace(/\*\*/g, '')}`);

  writeSection(
    'codegen',
    [
      '## 4. Codegen',
      '',
      `Synthetic projects of N \`@Tool\` methods in classes of 10, one class per file; each method takes one \`@Param() options\` ` +
        'of 5 fields (string with `@pattern`, number with `@minimum`/`@maximum`, literal union, optional boolean, nested object ' +
        `with a string array). Each contender runs in its own \`node\` process (start-up included); wall time in ms and peak RSS, median of ${ROUNDS} rounds.`,
      '',
      `- **${CODEGEN}**: the CLI, \`--project tsconfig.json --out src/tools.generated.ts\` (schemas, lints, input classes, compiled checks, both modules).`,
      `- **${FLOOR}**: the same ts-morph \`Project\`, reading every tool method's JSDoc and parameter types through the checker, no schema.`,
      `- **${TSJSG}**: \`createGenerator\` + one \`createSchema\` over all N options types (\`skipTypeCheck: true\`, its fastest setting).`,
      `- **${TSC_NOEMIT}**: the TypeScript compiler type-checking the same project (\`tsc --noEmit -p tsconfig.json\`), what any build of it pays.`,
      '',
      markdownTable(
        [
          'N methods',
          `${CODEGEN} ms`,
          `${CODEGEN} peak`,
          `${FLOOR} ms`,
          `${FLOOR} peak`,
          `${TSJSG} ms`,
          `${TSJSG} peak`,
          `${TSC_NOEMIT} ms`,
          'codegen ÷ floor',
          `codegen ÷ ${TSJSG}`,
          `codegen ÷ ${TSC_NOEMIT}`,
        ],
        sizeRows,
      ),
      '',
      `Growth from N=${first.methods} to N=${last.methods} (${ratio(last.methods, first.methods)} the methods; the fixed cost of starting node and loading TypeScript keeps the ratio below that):`,
      '',
      markdownTable(['contender', `ms at ${first.methods}`, `ms at ${last.methods}`, 'growth', 'ms per extra method'], growthRows),
      '',
      `\`--watch\` at N=${last.methods}: regenerating after one file changes takes **${fixed(watchMs, 0)} ms** ` +
        `(median of ${watchTimings.length} edits: ${watchTimings.map((t) => fixed(t, 0)).join(', ')} ms; from writing the file to the complete module on disk).`,
      '',
      'Goals:',
      '',
      ...goals.map((goal) => `- ${goal}.`),
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
