// The jest configuration Stryker runs each mutant against. Same as jest.config.js, but ts-jest
// only transpiles: the TypeScript checker has already type-checked the mutant, and Stryker's
// sandbox is a fresh directory each run, so ts-jest's type-checking cache would always be cold.
const base = require('./jest.config.js');

// One fixed seed for every mutant, so a mutant's verdict does not depend on the draw (and the
// incremental report stays valid); the exploring random seed is for the ordinary test runs.
process.env.FC_SEED ??= '20261201';
// Properties capped low (jest/fast-check-capped.js): a mutant costs a few seconds, not a minute.
process.env.FC_MAX_RUNS ??= '25';
process.env.FC_MODULE_PATH = require.resolve('fast-check');

module.exports = {
  ...base,
  // Only the test files that hold a test covering the mutant are loaded: see jest/mutate-test-files.js.
  setupFilesAfterEnv: [...(base.setupFilesAfterEnv ?? []), '<rootDir>/jest/mutate-record-tests.js'],
  testSequencer: '<rootDir>/jest/mutate-test-files.js',
  moduleNameMapper: { ...base.moduleNameMapper, '^fast-check$': '<rootDir>/jest/fast-check-capped.js' },
  transform: {
    ...base.transform,
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', isolatedModules: true, diagnostics: { ignoreCodes: [151002] } }],
  },
};
