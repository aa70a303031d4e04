// Writes bench/HISTORY.md from every committed version of bench/RESULTS.md and the one in the
// working tree. bench/run.js runs it after a full run; by hand: node bench/dist/history.js
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { goalLines, headerField, historyDocument, measuredCommit, type RecordedRun } from './lib/history';
import { BENCH_DIR, REPO_DIR } from './lib/paths';

const RESULTS = 'bench/RESULTS.md';
const HISTORY = join(BENCH_DIR, 'HISTORY.md');

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: REPO_DIR, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function recordedRun(results: string, recordedIn: string | undefined, subject: string): RecordedRun | undefined {
  const date = headerField(results, 'Date');
  const goals = goalLines(results);
  if (date === undefined || goals.length === 0) return undefined;
  return { date, code: headerField(results, 'Code') ?? measuredCommit(subject), recordedIn, machine: headerField(results, 'Machine'), goals };
}

function main(): void {
  if (process.argv.includes('--help')) {
    console.log('usage: node bench/dist/history.js\nWrites bench/HISTORY.md: one table of goal lines per full run, from the versions of bench/RESULTS.md in git and the working tree.');
    return;
  }
  // Oldest first, so a run carried unchanged through a merge is credited to the commit that recorded it.
  const commits = git('log', '--reverse', '--format=%h%x1f%s', '--', RESULTS)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\x1f') as [string, string]);
  const byDate = new Map<string, RecordedRun>();
  for (const [commit, subject] of commits) {
    const run = recordedRun(git('show', `${commit}:${RESULTS}`), commit, subject);
    if (run && !byDate.has(run.date)) byDate.set(run.date, run);
  }
  const current = recordedRun(readFileSync(join(REPO_DIR, RESULTS), 'utf8'), undefined, '');
  if (current && !byDate.has(current.date)) byDate.set(current.date, current);
  const runs = [...byDate.values()].reverse();
  writeFileSync(HISTORY, historyDocument(runs));
  console.log(`== bench: wrote bench/HISTORY.md (${runs.length} runs)`);
}

try {
  main();
} catch (error) {
  console.error(`bench history: ${(error as Error).message.trim()}\nbench/HISTORY.md is read from git: run it in a clone of the repository with git on PATH.`);
  process.exitCode = 1;
}
