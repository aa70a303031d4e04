// `pnpm mutate`: StrykerJS over the modules that carry the guarantees, one module at a time
// (each against only its own tests), then a summary of the scores and surviving mutants.
//   pnpm mutate                                   every module, in the order of modules.mjs
//   pnpm mutate -- --module schedule              one module (repeatable)
//   pnpm mutate -- --mutate packages/core/src/execution/schedule.ts[:10-20]
// Too slow for CI (hours on two cores): run it nightly. See docs/testing.md.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { moduleOf, modules } from './modules.mjs';
import { summarize } from './summary.mjs';

// StrykerJS 10 needs Node >= 22; the project supports Node 20, so Stryker runs on a Node 22 that
// npx fetches from the registry (the `node` package ships the binary) whatever the machine has.
const NODE = 'node@22.22.0';
const STRYKER = 'node_modules/@stryker-mutator/core/bin/stryker.js';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const selected = [];
const extra = [];
for (let i = 0; i < args.length; i++) {
  const [flag, value] = [args[i], args[i + 1]];
  if (flag === '--module') {
    const module = modules.find((candidate) => candidate.name === value);
    if (!module) fail(`pnpm mutate: no module "${value}" (modules: ${modules.map((m) => m.name).join(', ')})`);
    selected.push({ module });
    i++;
  } else if (flag === '--mutate') {
    const module = moduleOf(value ?? '');
    if (!module) fail(`pnpm mutate: ${value} is in no module of scripts/mutate/modules.mjs; add it there with the tests that guard it`);
    selected.push({ module, mutate: value });
    i++;
  } else {
    extra.push(flag);
  }
}
if (selected.length === 0) selected.push(...modules.map((module) => ({ module })));

let failed = 0;
for (const { module, mutate } of selected) {
  console.log(`\n=== mutate ${module.name}: ${mutate ?? module.mutate.join(', ')}`);
  writeCheckerConfig(module);
  const stryker = spawnSync('npx', ['-y', '-p', NODE, 'node', STRYKER, 'run', 'stryker.config.mjs', ...(mutate ? ['--mutate', mutate] : []), ...extra], {
    stdio: 'inherit',
    env: { ...process.env, TOOLWRIGHT_MUTATE_MODULE: module.name },
  });
  if (stryker.status !== 0) {
    console.error(`mutate ${module.name}: stryker exited with ${stryker.status ?? stryker.signal}`);
    failed++;
  }
}
console.log(`\n${summarize()}`);
process.exit(failed === 0 ? 0 : 1);

/**
 * The TypeScript checker's project: the module's files and its tests, and what they import, not
 * the whole workspace. Checking each mutant against all of tsconfig.json (2,800 files with the
 * NestJS, AI SDK and LangChain types) took nine tenths of a run's CPU; a mutant that breaks only
 * a package outside this program still compiles here and is tested, so none is hidden.
 */
function writeCheckerConfig(module) {
  const files = [...module.mutate, ...module.tests.map((test) => test.replace('<rootDir>/', ''))];
  writeFileSync('tsconfig.mutate.json', `${JSON.stringify({ extends: './tsconfig.json', include: [], files: files.map((file) => `./${file}`) }, null, 2)}\n`);
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
