import * as fs from 'node:fs';
import * as path from 'node:path';
import { generate } from '../src/generate';
import { makeTempProject } from './support/fixtures';
import { runCli } from './support/run-cli';

// What tools-codegen writes, and what it refuses to write over: a project's own file named as
// --out, a directory; a module left half written by a run that stopped; the JSON of --json under
// --check; a manifest checked out with Windows line endings; a file that does not parse.

const tools = (className = 'ClockTools', name = 'clock_now') => `import { Param, Tool } from '@toolwright/core';

export class ${className} {
  /**
   * Tells the time in a time zone.
   * Use it when the user asks what time it is somewhere.
   * It does not set alarms.
   * @param zone IANA time zone, like Europe/Lisbon.
   */
  @Tool({ effect: 'read', name: '${name}' })
  now(@Param() zone: string): string {
    return zone;
  }
}
`;

/** The hand-written module of the node template that builds the container. */
const APP = `import { ClockTools } from './clock.tools.js';
export const providers = [new ClockTools()]; // my own code
`;

const run = runCli;

function withProject(files: Record<string, string>, body: (dir: string, tsconfig: string) => void): void {
  const project = makeTempProject(files);
  try {
    body(project.dir, project.tsconfig);
  } finally {
    project.cleanup();
  }
}

describe('tools-codegen output files', () => {
  it('refuses an --out that names one of the project’s own files, and leaves it as it was', () => {
    withProject({ 'src/clock.tools.ts': tools(), 'src/tools.ts': APP }, (dir) => {
      const result = run(['--out', 'src/tools.ts'], dir);
      expect(result.code).toBe(2);
      expect(result.err).toContain('src/tools.ts exists and was not written by tools-codegen');
      expect(result.err).toContain('Give --out another file name');
      expect(fs.readFileSync(path.join(dir, 'src', 'tools.ts'), 'utf8')).toBe(APP);
      expect(fs.existsSync(path.join(dir, 'src', 'tools.checks.ts'))).toBe(false);
    });
  });

  it('refuses an --out that names a directory with one line (exit 2), writing nothing', () => {
    withProject({ 'src/clock.tools.ts': tools() }, (dir) => {
      const result = run(['--out', 'src'], dir);
      expect(result.code).toBe(2);
      expect(result.err).toContain('src is a directory, not a file tools-codegen can write');
      expect(fs.existsSync(path.join(dir, 'src.checks.ts'))).toBe(false);
    });
  });

  it('--check --json fails when the JSON definitions are stale or missing', () => {
    withProject({ 'src/clock.tools.ts': tools() }, (dir) => {
      const json = path.join(dir, 'src', 'tools.generated.json');
      expect(run(['--json', 'src/tools.generated.json'], dir).code).toBe(0);
      expect(run(['--check', '--json', 'src/tools.generated.json'], dir).code).toBe(0);
      fs.writeFileSync(json, '[]\n');
      expect(run(['--check', '--json', 'src/tools.generated.json'], dir).code).toBe(1);
      fs.rmSync(json);
      expect(run(['--check', '--json', 'src/tools.generated.json'], dir).code).toBe(1);
    });
  });

  it('--check takes a manifest checked out with CRLF line endings (git core.autocrlf) as up to date, and the next run leaves it', () => {
    withProject({ 'src/clock.tools.ts': tools() }, (dir) => {
      expect(run([], dir).code).toBe(0);
      const files = ['tools.generated.ts', 'tools.generated.checks.ts'].map((f) => path.join(dir, 'src', f));
      for (const file of files) fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
      expect(run(['--check'], dir).code).toBe(0);
      expect(run([], dir).code).toBe(0);
      expect(fs.readFileSync(files[0], 'utf8')).toContain('\r\n');
      // A real difference is still one.
      fs.writeFileSync(files[0], fs.readFileSync(files[0], 'utf8').replace('clock_now', 'clock_later'));
      expect(run(['--check'], dir).code).toBe(1);
    });
  });

  it.each([
    ['a body cut off mid-edit', (text: string) => text.replace('    return zone;\n  }\n}\n', '    return zone +;\n'), 12],
    ['a parameter list left open', (text: string) => text.replace('now(@Param() zone: string): string {', 'now(@Param() zone: string {'), 11],
  ])('reports a syntax error (%s) at its file and line, and writes nothing', (_, edit, line) => {
    withProject({ 'src/clock.tools.ts': edit(tools()), 'src/other.tools.ts': tools('OtherTools', 'other_now') }, (dir) => {
      const result = run([], dir);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(new RegExp(`src/clock\\.tools\\.ts:${line}:\\d+ error: syntax error: `));
      expect(result.err).not.toContain('no @Tool methods');
      expect(fs.existsSync(path.join(dir, 'src', 'tools.generated.ts'))).toBe(false);
    });
  });

  describe('a run that stops while writing', () => {
    // generate.ts reads fs through `import * as fs`, whose getters reach node:fs's own (writable) exports.
    const nodeFs = require('node:fs') as typeof fs;
    const realWrite = nodeFs.writeFileSync;
    afterEach(() => {
      nodeFs.writeFileSync = realWrite;
    });

    it('leaves each module as it was or whole, never half written, and no partial file behind', () => {
      withProject({ 'src/m.tools.ts': tools('MTools', 'm_now') }, (dir, tsconfig) => {
        const out = path.join(dir, 'src', 'tools.generated.ts');
        generate({ project: tsconfig });
        const before = fs.readFileSync(out, 'utf8');
        fs.writeFileSync(path.join(dir, 'src', 'a.tools.ts'), tools('ATools', 'a_now'));
        // The disk fills halfway through the manifest's write.
        nodeFs.writeFileSync = ((file: fs.PathOrFileDescriptor, data: string, ...rest: unknown[]) => {
          if (typeof file === 'string' && path.resolve(file).startsWith(out)) {
            realWrite(file, data.slice(0, Math.floor(data.length / 2)));
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          }
          return (realWrite as (...args: unknown[]) => void)(file, data, ...rest);
        }) as typeof fs.writeFileSync;

        expect(() => generate({ project: tsconfig })).toThrow(/ENOSPC/);
        nodeFs.writeFileSync = realWrite;

        expect(fs.readFileSync(out, 'utf8')).toBe(before);
        expect(fs.readdirSync(path.join(dir, 'src')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
        // The checks module was written whole; the two now disagree, which the manifest's import refuses (end-to-end.test.ts).
        expect(generate({ project: tsconfig }).written).toBe(true);
        expect(run(['--check'], dir).code).toBe(0);
      });
    });
  });
});
