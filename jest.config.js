// Tests run against the TypeScript sources of every package (no build needed), type-checked
// by ts-jest with the root tsconfig, whose `paths` point the package names at `src/`.
const sources = {
  '^@toolwright/core$': '<rootDir>/packages/core/src/index.ts',
  '^@toolwright/core/testing$': '<rootDir>/packages/core/src/testing/index.ts',
  '^@toolwright/core/tooling$': '<rootDir>/packages/core/src/tooling.ts',
  '^@toolwright/codegen$': '<rootDir>/packages/codegen/src/index.ts',
  '^@toolwright/nest$': '<rootDir>/packages/nest/src/index.ts',
  '^@toolwright/mcp$': '<rootDir>/packages/mcp/src/index.ts',
  '^@toolwright/pg-store$': '<rootDir>/packages/pg-store/src/index.ts',
  '^@toolwright/pg-testkit$': '<rootDir>/packages/pg-testkit/src/index.ts',
  '^@toolwright/ai-sdk$': '<rootDir>/packages/ai-sdk/src/index.ts',
  '^@toolwright/openai-agents$': '<rootDir>/packages/openai-agents/src/index.ts',
  '^@toolwright/langchain$': '<rootDir>/packages/langchain/src/index.ts',
};

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // bench/test: the bench's own arithmetic, which every goal line of bench/RESULTS.md reads.
  roots: ['<rootDir>/packages', '<rootDir>/bench'],
  testMatch: ['**/test/**/*.test.ts'],
  // create-toolwright's templates are projects of their own, tested by scripts/ci/lines/templates.sh;
  // their package.json files are not modules of this workspace.
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/__fixtures__/', '<rootDir>/packages/create-toolwright/templates/'],
  modulePathIgnorePatterns: ['<rootDir>/packages/create-toolwright/templates/'],
  moduleNameMapper: sources,
  transform: {
    // 151002: ts-jest prefers isolatedModules with module nodenext; we keep full type checking.
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
    // NestJS 12 is ESM-only: see jest/esm-to-cjs.js.
    '^.+/node_modules/.+\\.js$': '<rootDir>/jest/esm-to-cjs.js',
    // PGlite (tests of @toolwright/pg-store): see jest/dynamic-import-to-require.js.
    '^.+/node_modules/@electric-sql/pglite/dist/.+\\.cjs$': '<rootDir>/jest/dynamic-import-to-require.js',
  },
  // The AI SDK (`ai`, `@ai-sdk/*`) is ESM-only too.
  transformIgnorePatterns: ['/node_modules/(?!\\.pnpm/@nestjs\\+|@nestjs/|\\.pnpm/@electric-sql\\+pglite|@electric-sql/pglite/|\\.pnpm/ai@|ai/dist/|\\.pnpm/@ai-sdk\\+|@ai-sdk/|\\.pnpm/zod@|zod/|\\.pnpm/@workflow\\+serde|@workflow/serde/|\\.pnpm/eventsource-parser@|eventsource-parser/|\\.pnpm/@standard-schema\\+spec|@standard-schema/spec/)'],
  testTimeout: 60_000,
  // One fast-check seed per run, printed at the start; FC_SEED=<n> replays it (docs/testing.md).
  globalSetup: '<rootDir>/jest/fast-check-seed.js',
  setupFiles: ['<rootDir>/jest/fast-check.js'],
};
