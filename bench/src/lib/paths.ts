import { join, resolve } from 'node:path';

/** `bench/`, whether running from `bench/dist/lib` or `bench/dist/probes`. */
export const BENCH_DIR = resolve(__dirname, '..', '..');
export const REPO_DIR = resolve(BENCH_DIR, '..');
/** Gitignored scratch space: synthetic projects and the per-benchmark sections of RESULTS.md. */
export const WORK_DIR = join(BENCH_DIR, '.work');
export const SECTIONS_DIR = join(WORK_DIR, 'sections');
export const PROBES_DIR = join(BENCH_DIR, 'dist', 'probes');
export const CODEGEN_CLI = join(REPO_DIR, 'packages', 'codegen', 'dist', 'cli.js');
export const TSC = require.resolve('typescript/bin/tsc', { paths: [REPO_DIR] });
