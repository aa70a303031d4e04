import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const GNU_TIME = '/usr/bin/time';

export interface ChildRun {
  wallMs: number;
  /** Peak resident set size of the child, from GNU time when present, else from the child itself. */
  maxRssBytes: number;
  stdout: string;
}

/**
 * Runs `node <args>` to completion and measures it from the outside. Without GNU time the child
 * must print `maxRSS=<kilobytes>` (see `reportMaxRss`), which is what `process.resourceUsage()`
 * gives it.
 */
export function runNode(args: readonly string[], options: { cwd?: string } = {}): Promise<ChildRun> {
  const useGnuTime = existsSync(GNU_TIME);
  const [command, argv] = useGnuTime ? [GNU_TIME, ['-v', process.execPath, ...args]] : [process.execPath, [...args]];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`node ${args.join(' ')} exited ${code}:\n${stdout}\n${stderr}`));
        return;
      }
      const source = useGnuTime ? stderr.match(/Maximum resident set size \(kbytes\): (\d+)/) : stdout.match(/maxRSS=(\d+)/);
      if (!source) {
        reject(new Error(`no peak memory reported by node ${args.join(' ')}:\n${stderr}`));
        return;
      }
      resolve({ wallMs, maxRssBytes: Number(source[1]) * 1024, stdout });
    });
  });
}

/** For probes: lets `runNode` read the peak memory when GNU time is not installed. */
export function reportMaxRss(): void {
  process.stdout.write(`maxRSS=${process.resourceUsage().maxRSS}\n`);
}
