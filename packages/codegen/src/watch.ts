import * as fs from 'node:fs';
import * as path from 'node:path';
import { Generator, type GenerateOptions, type GenerateResult } from './generate';

export interface WatchHandle {
  /** The source roots: the directories the tsconfig's `include` reaches. */
  readonly roots: readonly string[];
  /** Every directory watched right now (one watch each). */
  readonly directories: readonly string[];
  close(): void;
}

export interface WatchEvents {
  /** After every run: the first one, then one per batch of changes. */
  onRun(result: GenerateResult, changedFiles: readonly string[]): void;
  /**
   * A later run could not read the project (a tsconfig broken while watching: `ProjectConfigError`).
   * Watching goes on; the next change runs again.
   */
  onError(error: unknown): void;
}

/** Long enough for an editor's save of several files to come as one batch, short enough not to be felt. */
const SETTLE_MS = 30;

/** Never source roots, whatever the `include` globs say (tsc skips them the same way). */
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'bower_components', 'jspm_packages']);

const SOURCE_FILE = /\.[cm]?tsx?$/;

/**
 * Runs the generator, then again whenever a TypeScript file of the project changes. Only the
 * directories the tsconfig selects files from are watched (never `node_modules`, dot-directories
 * or the build output), and directories rather than files: an editor that saves by writing a
 * temporary file and renaming it over the original replaces the file, and a watch on the old
 * file would see nothing after the first save. Changes are batched for a moment so that a save
 * touching several files runs once; the same ts-morph `Project` is kept, only the files the
 * events name are re-read, and only the tools whose types reach a changed file are built again.
 */
export function watchProject(options: GenerateOptions, events: WatchEvents): WatchHandle {
  const generator = new Generator(options);
  events.onRun(generator.run(), []);
  const ignored = new Set([generator.outFile, generator.checksFile, ...(options.json ? [path.resolve(options.json)] : [])]);
  const skippedRoots = [generator.config.options.outDir, generator.config.options.declarationDir]
    .filter((d): d is string => d !== undefined)
    .map((d) => path.resolve(d));
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  /** The files the events named since the last run; `undefined` once a new directory came: read everything. */
  let pending: Set<string> | undefined = new Set();

  const schedule = (file?: string) => {
    if (file === undefined) pending = undefined;
    else pending?.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (closed) return;
      const hinted = pending && [...pending];
      pending = new Set();
      try {
        const changed = generator.refresh(hinted);
        if (changed.length > 0) events.onRun(generator.run(), changed);
      } catch (error) {
        events.onError(error);
      }
    }, SETTLE_MS);
  };

  const skipped = (dir: string) => {
    const name = path.basename(dir);
    return SKIPPED_DIRECTORIES.has(name) || name.startsWith('.') || skippedRoots.includes(dir);
  };

  const watchDirectory = (dir: string, recursive: boolean) => {
    if (closed || watchers.has(dir)) return;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, (event, name) => {
        if (!name) return;
        const file = path.join(dir, name.toString());
        // A directory deleted, moved or made again (a branch checkout, rm -rf then mkdir): its old
        // watcher sees nothing more, and on Linux says nothing of it either, so it is dropped and
        // the directory, if there, watched afresh.
        if (event === 'rename' && watchers.has(file)) {
          forgetTree(file);
          schedule();
        }
        if (recursive && isDirectory(file) && !skipped(file)) {
          watchTree(file);
          schedule();
        } else if (SOURCE_FILE.test(file) && !ignored.has(file)) {
          schedule(file);
        }
      });
    } catch {
      return; // gone between listing and watching
    }
    watcher.on('error', () => {
      watcher.close();
      watchers.delete(dir);
    });
    watchers.set(dir, watcher);
  };

  const forgetTree = (dir: string) => {
    for (const [watched, watcher] of watchers) {
      if (watched === dir || watched.startsWith(dir + path.sep)) {
        watcher.close();
        watchers.delete(watched);
      }
    }
  };

  const watchTree = (dir: string) => {
    watchDirectory(dir, true);
    for (const entry of readDirectory(dir)) {
      const child = path.join(dir, entry.name);
      if (entry.isDirectory() && !skipped(child)) watchTree(child);
    }
  };

  const roots = sourceRoots(generator);
  for (const { dir, recursive } of roots) {
    if (recursive) watchTree(dir);
    else watchDirectory(dir, false);
  }
  return {
    roots: roots.map((r) => r.dir),
    get directories() {
      return [...watchers.keys()];
    },
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/**
 * The directories of the tsconfig's `include` globs, plus those of files listed one by one
 * (`files`, or an `include` naming a file) that no recursive root already covers.
 */
function sourceRoots(generator: Generator): Array<{ dir: string; recursive: boolean }> {
  const roots = generator.config.directories.filter(({ dir }) => isDirectory(dir));
  const covered = (file: string) =>
    roots.some(({ dir, recursive }) => (recursive ? file.startsWith(dir + path.sep) : path.dirname(file) === dir));
  for (const file of generator.config.fileNames) {
    if (!covered(file)) roots.push({ dir: path.dirname(file), recursive: false });
  }
  return roots;
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function readDirectory(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
