// Mutation testing, one module at a time: run it through `pnpm mutate` (scripts/mutate/run.mjs),
// which sets TOOLWRIGHT_MUTATE_MODULE. See docs/testing.md.
import { modules } from './scripts/mutate/modules.mjs';

const name = process.env.TOOLWRIGHT_MUTATE_MODULE;
const module = modules.find((candidate) => candidate.name === name);
if (!module) throw new Error(`stryker.config.mjs: unknown module "${name}"; run it through \`pnpm mutate\` (modules: ${modules.map((m) => m.name).join(', ')})`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'pnpm',
  // Named, not discovered: under pnpm, Stryker cannot see its sibling packages by scanning.
  plugins: ['@stryker-mutator/jest-runner', '@stryker-mutator/typescript-checker'],
  testRunner: 'jest',
  checkers: ['typescript'],
  // Written by scripts/mutate/run.mjs: the module and its tests, not the whole workspace.
  tsconfigFile: 'tsconfig.mutate.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 1),
  mutate: module.mutate,
  jest: {
    projectType: 'custom',
    configFile: 'jest.mutate.config.js',
    enableFindRelatedTests: false,
    config: { testMatch: module.tests },
  },
  ignorePatterns: ['bench', 'consumers', 'docs', 'reports', '**/dist', '.stryker-tmp'],
  incremental: true,
  incrementalFile: `reports/mutation/${module.name}.incremental.json`,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${module.name}.json` },
  clearTextReporter: { allowColor: false, logTests: false },
  timeoutMS: 10_000,
  timeoutFactor: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
