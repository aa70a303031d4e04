import * as fs from 'node:fs';
import * as path from 'node:path';
import { TEMPLATES, type TemplateName } from './templates';

/** Where the template files are: beside `dist/` in the package. */
const TEMPLATES_DIR = path.join(__dirname, '..', 'templates');

/** npm leaves dotfiles such as `.gitignore` out of a package, so templates carry them as `_gitignore`. */
const RENAMED: Readonly<Record<string, string>> = { _gitignore: '.gitignore' };

/** The target folder cannot take a new project; the CLI prints the message and exits 1. */
export class TargetError extends Error {
  override name = 'TargetError';
}

export interface ScaffoldOptions {
  /** The folder to create (or an empty one to fill), as typed: messages show it so. */
  dir: string;
  /** What a relative `dir` is relative to; the process's working directory by default. */
  cwd?: string;
  template: TemplateName;
  /** The version of the `@toolwright/*` packages the project depends on: this package's own. */
  toolwrightVersion: string;
}

/** Writes the project; returns the files written, relative to `dir`. */
export function scaffold(options: ScaffoldOptions): string[] {
  const dir = path.resolve(options.cwd ?? process.cwd(), options.dir);
  checkTarget(dir, options.dir);
  const values: Record<string, string> = { name: packageName(dir), toolwrightVersion: options.toolwrightVersion };
  const files = new Map<string, string>();
  for (const layer of TEMPLATES[options.template].layers) collect(path.join(TEMPLATES_DIR, layer), '', files);
  fs.mkdirSync(dir, { recursive: true });
  for (const [relative, source] of files) {
    const target = path.join(dir, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, fill(fs.readFileSync(source, 'utf8'), values));
  }
  return [...files.keys()].sort();
}

/** A folder that does not exist, or an empty one; anything else is refused before a file is written. */
function checkTarget(dir: string, asTyped: string): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') throw new TargetError(`${asTyped} is a file, not a folder; choose another name for the project.`);
    throw error;
  }
  if (entries.length === 0) return;
  const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', ...' : '');
  throw new TargetError(
    `${asTyped} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}: ${shown}); ` +
      'nothing was written. Choose a new folder name, or empty this one.',
  );
}

/** The folder's name as an npm package name: lower case, no spaces or characters npm refuses. */
function packageName(dir: string): string {
  const name = path
    .basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name || 'toolwright-app';
}

function collect(root: string, relative: string, into: Map<string, string>): void {
  for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const from = path.join(relative, entry.name);
    if (entry.isDirectory()) collect(root, from, into);
    else into.set(path.join(relative, RENAMED[entry.name] ?? entry.name), path.join(root, from));
  }
}

/** `{{name}}` and `{{toolwrightVersion}}` in a template file. */
function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}
