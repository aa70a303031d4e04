/**
 * The modules that carry the guarantees, each with the test files that guard it. Stryker runs
 * one module at a time against only these files: the whole suite per mutant would not fit a night.
 * Smallest and most important first, so a run cut short still has their figures.
 */
const core = (...files) => files.map((file) => `<rootDir>/packages/core/test/${file}`);

const validateInputTests = core(
  'validation/validator-skip.properties.test.ts',
  'validation/param-whitelist.test.ts',
  'validation/contract.test.ts',
  'validation/schema-check.test.ts',
  'execution/executor.test.ts',
  'execution/hardening.test.ts',
  'execution/input-limits.test.ts',
  // The large object's key list the limits walk keeps and buildInput drops, even when the check throws.
  'validation/listed-keys.test.ts',
);

export const modules = [
  {
    name: 'schedule',
    mutate: ['packages/core/src/execution/schedule.ts'],
    tests: [
      ...core('execution/executor.test.ts', 'execution/executor.properties.test.ts'),
      ...core('loop/stream-tool-loop.test.ts', 'loop/stream-tool-loop.properties.test.ts', 'loop/limits.test.ts'),
    ],
  },
  {
    name: 'arrival-order',
    mutate: ['packages/mcp/src/arrival-order.ts'],
    tests: ['<rootDir>/packages/mcp/test/session-order.property.test.ts', '<rootDir>/packages/mcp/test/arrival-order.test.ts'],
  },
  {
    name: 'direct-calls',
    mutate: ['packages/mcp/src/direct-calls.ts', 'packages/mcp/src/log-level.ts', 'packages/mcp/src/session-calls.ts'],
    tests: [
      '<rootDir>/packages/mcp/test/direct-calls.property.test.ts',
      '<rootDir>/packages/mcp/test/session-order.property.test.ts',
      '<rootDir>/packages/mcp/test/results.test.ts',
      '<rootDir>/packages/mcp/test/http-elicitation.test.ts',
      '<rootDir>/packages/mcp/test/http-resume.test.ts',
      '<rootDir>/packages/mcp/test/http-attacks.test.ts',
    ],
  },
  {
    name: 'prompt-cache',
    mutate: ['packages/core/src/loop/prompt-cache.ts'],
    tests: core('loop/prompt-cache.properties.test.ts', 'loop/prompt-cache.test.ts', 'loop/claude-features.test.ts'),
  },
  {
    name: 'in-memory-run-store',
    mutate: ['packages/core/src/approval/in-memory-run-store.ts'],
    tests: core('approval/in-memory-run-store.test.ts', 'approval/exactly-once.properties.test.ts'),
  },
  {
    name: 'build-instance',
    mutate: ['packages/core/src/validation/build-instance.ts'],
    tests: core('validation/validator-skip.properties.test.ts', 'validation/param-whitelist.test.ts', 'validation/contract.test.ts', 'execution/executor.test.ts'),
  },
  {
    name: 'turn-calls',
    mutate: ['packages/core/src/loop/turn-calls.ts'],
    tests: core(
      'loop/stream-tool-loop.test.ts',
      'loop/stream-tool-loop.properties.test.ts',
      'loop/conversation-integrity.test.ts',
      'loop/limits.test.ts',
      'loop/errors.test.ts',
      'loop/stop-reasons.test.ts',
      'loop/claude-features.test.ts',
      'approval/approval-loop.test.ts',
      // The journaled paths (a read's journal write failing, one `execute` per read of a stored
      // run, resumes with preset results) and eager reads beside approvals run only in these.
      'approval/eager-approval.test.ts',
      'approval/exactly-once.properties.test.ts',
      'approval/store-failures.test.ts',
      'interop/server-sent-events.test.ts',
      'loop/lesson.test.ts',
      'loop/turn-calls.test.ts',
    ),
  },
  {
    name: 'validate-input',
    mutate: ['packages/core/src/validation/validate-input.ts', 'packages/core/src/validation/schema-check.ts', 'packages/core/src/validation/plain-input.ts'],
    tests: validateInputTests,
  },
  {
    name: 'pattern-code',
    mutate: ['packages/core/src/validation/pattern-code.ts'],
    tests: core('validation/pattern-code.properties.test.ts'),
  },
  {
    // validate-input's helpers on their own: with it (402 mutants before listed-keys) they did not
    // fit one run (validate-input.ts alone runs with `--mutate packages/core/src/validation/validate-input.ts`).
    name: 'schema-check-plain-input',
    mutate: ['packages/core/src/validation/schema-check.ts', 'packages/core/src/validation/plain-input.ts', 'packages/core/src/validation/listed-keys.ts'],
    // schema-check.ts hands each pattern of Ajv's code to pattern-code, and that file holds it to it.
    tests: [...validateInputTests, ...core('validation/pattern-code.properties.test.ts')],
  },
  {
    name: 'engine',
    mutate: ['packages/core/src/loop/engine.ts', 'packages/core/src/loop/durable-run.ts', 'packages/core/src/loop/store-silence.ts', 'packages/core/src/loop/resume-tool-loop.ts'],
    tests: core(
      'approval/approval-loop.test.ts',
      'approval/exactly-once.properties.test.ts',
      'approval/in-memory-run-store.test.ts',
      'approval/eager-approval.test.ts',
      'approval/store-failures.test.ts',
      'approval/durable-run.test.ts',
      // The store's answers checked, a hung store given up at an abort, a journaled denial on recovery.
      'approval/store-hangs.test.ts',
      'approval/foreign-store-answers.test.ts',
      'approval/denied-read-recovery.test.ts',
      'approval/long-lease-heartbeat.test.ts',
      'approval/signed-state-store-failure.test.ts',
      'approval/decisions.test.ts',
      'approval/run-state-signature.test.ts',
      'loop/stream-tool-loop.test.ts',
      'loop/turn-calls.test.ts',
      'loop/limits.test.ts',
      'loop/stop-reasons.test.ts',
      'loop/run-edges.test.ts',
      'loop/conversation-integrity.test.ts',
      'loop/errors.test.ts',
      'loop/claude-features.test.ts',
      'loop/prompt-cache.test.ts',
    ),
  },
  {
    name: 'pg-store',
    mutate: ['packages/pg-store/src/postgres-run-store.ts'],
    // real-server.test.ts too: the only tests where statements go to several connections and
    // processes race on the same rows (it starts a server of its own, in the sandbox as well).
    tests: ['postgres-run-store', 'concurrent-resume', 'real-server', 'foreign-rows'].map((file) => `<rootDir>/packages/pg-store/test/${file}.test.ts`),
  },
];

/** The module a source file belongs to, for `pnpm mutate -- --mutate <file>`. */
export function moduleOf(file) {
  const path = file.replace(/:.*$/, '');
  return modules.find((module) => module.mutate.includes(path));
}
