import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../src/cli';
import { makeTempProject } from './support/fixtures';

const TOOLS = `import { Param, Tool } from '@toolwright/core';

export class ClockTools {
  /**
   * Tells the time in a time zone.
   * Use it when the user asks what time it is somewhere.
   * It does not set alarms.
   * @param zone IANA time zone, like Europe/Lisbon.
   */
  @Tool({ effect: 'read' })
  now(@Param() zone: string): string {
    return zone;
  }
}
`;

/** Runs the CLI in-process and collects what it printed. */
function run(args: string[], cwd: string): { code: number | 'watching'; out: string; err: string } {
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

describe('tools-codegen CLI', () => {
  const project = makeTempProject({ 'src/clock.tools.ts': TOOLS });
  const outFile = path.join(project.dir, 'src', 'tools.generated.ts');
  afterAll(() => project.cleanup());

  it('writes src/tools.generated.ts next to the tsconfig by default, and the JSON with --json', () => {
    const result = run(['--project', 'tsconfig.json', '--json'], project.dir);
    expect(result).toMatchObject({ code: 0, out: 'tools-codegen: wrote src/tools.generated.ts (1 tools).' });
    expect(fs.readFileSync(outFile, 'utf8')).toContain("import { ClockTools } from './clock.tools';");
    const json = JSON.parse(fs.readFileSync(path.join(project.dir, 'src', 'tools.generated.json'), 'utf8'));
    expect(json).toEqual([expect.objectContaining({ name: 'now', input_schema: expect.objectContaining({ required: ['zone'] }) })]);
  });

  it('--check exits 0 on a fresh file and writes nothing', () => {
    const before = fs.statSync(outFile).mtimeMs;
    expect(run(['--project', 'tsconfig.json', '--check'], project.dir)).toMatchObject({ code: 0, out: 'tools-codegen: src/tools.generated.ts is up to date (1 tools).' });
    expect(fs.statSync(outFile).mtimeMs).toBe(before);
  });

  it('--check exits 1 with a one-line reason on a stale file, and leaves it alone', () => {
    const stale = fs.readFileSync(outFile, 'utf8').replace("method: 'now'", "method: 'later'");
    fs.writeFileSync(outFile, stale);
    const result = run(['--project', 'tsconfig.json', '--check'], project.dir);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^tools-codegen: src\/tools\.generated\.ts is stale: it differs from the generated code at line \d+; run tools-codegen and commit the result\.$/);
    expect(fs.readFileSync(outFile, 'utf8')).toBe(stale);
  });

  it('--check on a missing file says so', () => {
    fs.rmSync(outFile);
    expect(run(['--project', 'tsconfig.json', '--check'], project.dir).err).toContain('is stale: the file does not exist');
  });

  it('exits 2 on bad usage, with the help', () => {
    const result = run(['--frobnicate'], project.dir);
    expect(result.code).toBe(2);
    expect(result.err).toContain('unknown option "--frobnicate"');
    expect(result.err).toContain('Usage: tools-codegen');
    expect(run(['--project', 'nope.json'], project.dir)).toMatchObject({ code: 2, err: expect.stringContaining('no tsconfig at nope.json') });
  });

  it('--help prints the flags', () => {
    const result = run(['--help'], project.dir);
    expect(result.code).toBe(0);
    for (const flag of ['--project', '--out', '--check', '--watch', '--json', '--help']) expect(result.out).toContain(flag);
  });
});
