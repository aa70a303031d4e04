import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: true,
    include: ['src/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    // The e2e tests start the app, its embedded database (PGlite) included, once or twice each.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
