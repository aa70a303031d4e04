import { spawnSync } from 'node:child_process';

/**
 * Runs a bench's `main` with `gc()`, for figures that need a full GC before each sample: when
 * the process was started without `--expose-gc`, it runs itself again in a child with it.
 */
export function runWithGc(main: (gc: () => void) => Promise<void>, script: string): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    main(gc).catch((error) => {
      console.error(error);
      process.exit(1);
    });
    return;
  }
  const { status } = spawnSync(process.execPath, ['--expose-gc', script, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(status ?? 1);
}
