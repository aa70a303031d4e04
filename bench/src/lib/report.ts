import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECTIONS_DIR } from './paths';

/** `--ci`: one round at tiny sizes, so the scripts are exercised without the cost of real numbers. */
export const isCi = process.argv.includes('--ci');

export function markdownTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fixed = (value: number, digits = 1) => value.toFixed(digits);
export const ratio = (value: number, baseline: number) => `${(value / baseline).toFixed(2)}×`;
export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
/** A goal line's verdict, as every section writes it. */
export const metIf = (ok: boolean) => (ok ? 'met' : 'not met');

/** Each benchmark runs in its own process; run.js stitches the sections into RESULTS.md. */
export function writeSection(name: string, markdown: string): void {
  mkdirSync(SECTIONS_DIR, { recursive: true });
  writeFileSync(join(SECTIONS_DIR, `${name}.md`), markdown.trimEnd() + '\n');
}

export function progress(message: string): void {
  process.stderr.write(`  ${message}\n`);
}
