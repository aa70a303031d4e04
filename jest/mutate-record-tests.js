// For mutation runs only (jest.mutate.config.js), in setupFilesAfterEnv: during Stryker's first
// run (its test runner process, no mutant active), writes each test's full name and its file to
// the list jest/mutate-test-files.js narrows later runs with. Outside Stryker it records nothing.
const { appendFileSync } = require('node:fs');
const { join } = require('node:path');

// In the sandbox Stryker copies the workspace to (gitignored in the workspace).
const TESTS_LIST = join(__dirname, '..', '.mutate-tests.jsonl');

const firstStrykerRun = process.env.STRYKER_MUTATOR_WORKER !== undefined && process.env.__STRYKER_ACTIVE_MUTANT__ === undefined;
if (typeof beforeEach === 'function' && firstStrykerRun) {
  const names = new Set();
  beforeEach(() => {
    names.add(expect.getState().currentTestName);
  });
  afterAll(() => {
    const { testPath } = expect.getState();
    appendFileSync(TESTS_LIST, [...names].map((name) => `${JSON.stringify({ file: testPath, name })}\n`).join(''));
  });
}

module.exports = { TESTS_LIST };
