import { main } from '../../src/cli';

/** Runs the CLI in-process and collects what it printed. */
export function runCli(args: string[], cwd: string): { code: ReturnType<typeof main>; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = jest.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    return { code: main(args, cwd), out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
