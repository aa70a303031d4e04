import { defineConfig } from 'vitest/config';

// The templates' setting: a first tool call compiles its validator, and CI machines are shared.
export default defineConfig({ test: { testTimeout: 30_000 } });
