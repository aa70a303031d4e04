// For mutation runs only (jest.mutate.config.js), a test sequencer. Stryker's jest runner picks
// the tests that cover a mutant by name (`testNamePattern`), but Jest still loads every test file
// of the module to look for them, and loading a file (the SDK, the core, the fixtures) costs more
// than its tests. When a run names its tests, this keeps only the files that hold a test the
// pattern matches, matched as Jest matches it (case-insensitive, anywhere in the full name), from
// the list jest/mutate-record-tests.js wrote during Stryker's first run: a file it drops is one
// where Jest would run no test. Without the list, or if the pattern matches no test in it, every
// file runs.
const { existsSync, readFileSync } = require('node:fs');
const { TESTS_LIST } = require('./mutate-record-tests');

class MutateTestFiles {
  constructor({ globalConfig }) {
    this.globalConfig = globalConfig;
  }

  sort(tests) {
    const pattern = this.globalConfig.testNamePattern;
    if (!pattern || !existsSync(TESTS_LIST)) return tests;
    const named = new RegExp(pattern, 'i');
    const files = new Set();
    for (const line of readFileSync(TESTS_LIST, 'utf8').split('\n')) {
      if (!line) continue;
      const { file, name } = JSON.parse(line);
      if (named.test(name)) files.add(file);
    }
    if (files.size === 0) return tests;
    return tests.filter((test) => files.has(test.path));
  }

  cacheResults() {}

  allFailedTests(tests) {
    return tests;
  }
}

module.exports = MutateTestFiles;
