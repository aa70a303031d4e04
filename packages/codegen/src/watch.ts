import * as fs from 'node:fs';
import * as path from 'node:path';
import { Generator, type GenerateOptions, type GenerateResult } from './generate';

export interface WatchHandle {
  close(): void;
}

export interface WatchEvents {
  /** After every run: the first one, then one per batch of changes. */
  onRun(result: GenerateResult, changedFiles: readonly string[]): void;
}

const SETTLE_MS = 100;

/**
 * Runs the generator, then again whenever a TypeScript file under the project's directory
 * changes. Changes are batched for a moment so that a save touching several files runs once.
 * The same ts-morph `Project` is kept and only changed files are re-read.
 */
export function watchProject(options: GenerateOptions, events: WatchEvents): WatchHandle {
  const generator = new Generator(options);
  events.onRun(generator.run(), []);
  const root = path.dirname(path.resolve(options.project));
  let timer: NodeJS.Timeout | undefined;
  const watcher = fs.watch(root, { recursive: true }, (_event, name) => {
    if (!name || !/\.[cm]?tsx?$/.test(name) || name.includes('node_modules')) return;
    if (path.resolve(root, name) === generator.outFile) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const changed = generator.refresh();
      if (changed.length > 0) events.onRun(generator.run(), changed);
    }, SETTLE_MS);
  });
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
