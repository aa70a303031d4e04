// Jest setupFiles: every property of the run uses the run's seed (jest/fast-check-seed.js). A
// failing property's message carries the seed, the path and the shrunk counterexample; replay it
// with FC_SEED=<seed> (and FC_PATH=<path> to go straight to the shrunk case) on that test alone.
const fc = require('fast-check');

if (process.env.FC_SEED !== undefined) {
  fc.configureGlobal({
    seed: Number(process.env.FC_SEED),
    ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
  });
}
