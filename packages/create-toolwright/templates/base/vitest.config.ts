import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A test's first tool call compiles its validator, and CI machines are shared: 5 s is tight.
    testTimeout: 30_000,
  },
});
