import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempProject } from './support/fixtures';
import { runCli } from './support/run-cli';

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

const run = runCli;

describe('tools-codegen CLI', () => {
  const project = makeTempProject({ 'src/clock.tools.ts': TOOLS });
  const outFile = path.join(project.dir, 'src', 'tools.generated.ts');
  afterAll(() => project.cleanup());

  it('writes src/tools.generated.ts next to the tsconfig by default, and the JSON with --json', () => {
    const result = run(['--project', 'tsconfig.json', '--json'], project.dir);
    expect(result).toMatchObject({ code: 0, out: 'tools-codegen: wrote src/tools.generated.ts (1 tool).' });
    expect(fs.readFileSync(outFile, 'utf8')).toContain("import { ClockTools } from './clock.tools';");
    const json = JSON.parse(fs.readFileSync(path.join(project.dir, 'src', 'tools.generated.json'), 'utf8'));
    expect(json).toEqual([expect.objectContaining({ name: 'now', input_schema: expect.objectContaining({ required: ['zone'] }) })]);
  });

  it('--check exits 0 on a fresh file and writes nothing', () => {
    const before = fs.statSync(outFile).mtimeMs;
    expect(run(['--project', 'tsconfig.json', '--check'], project.dir)).toMatchObject({ code: 0, out: 'tools-codegen: src/tools.generated.ts is up to date (1 tool).' });
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

  it('--check on a missing file says it was never written and how to write it', () => {
    fs.rmSync(outFile);
    expect(run(['--project', 'tsconfig.json', '--check'], project.dir)).toMatchObject({
      code: 1,
      err: 'tools-codegen: src/tools.generated.ts does not exist yet: run tools-codegen without --check to write it (the project imports its toolManifest), then commit it.',
    });
  });

  it.each([
    [['--frobnicate'], 'unknown option "--frobnicate".'],
    [['positional'], 'unknown option "positional".'],
    [['--out'], '--out needs a value: --out <file>.'],
    [['--import-extension', 'mjs'], '--import-extension takes js, ts, none, got "mjs".'],
    [['--import-extension'], '--import-extension needs a value: --import-extension <js|ts|none>.'],
    [['--check=yes'], '--check takes no value.'],
    [['--check', '--watch'], '--check and --watch cannot be used together.'],
  ])('%j is a usage error: exit 2, the reason, then the help', (args, reason) => {
    const result = run(args, project.dir);
    expect(result.code).toBe(2);
    expect(result.err.split('\n')[0]).toBe(`tools-codegen: ${reason}`);
    expect(result.err).toContain('Usage: tools-codegen');
  });

  it('--help lists every flag and the exit codes', () => {
    const result = run(['--help'], project.dir);
    expect(result.code).toBe(0);
    const flags = ['--project <tsconfig>', '--out <file>', '--check', '--watch', '--json [file]', '--allow-any', '--import-extension <js|ts|none>', '--help'];
    for (const flag of flags) expect(result.out).toMatch(new RegExp(`^  ${flag.replace(/[|[\]]/g, '\\$&')} +\\S`, 'm'));
    expect(result.out).toContain('Exit codes: 0 done; 1 errors in the code');
    expect(run(['-h'], project.dir).out).toBe(result.out);
  });

  it('the codegen guide documents every flag --help lists', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'decorators-and-codegen.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### CLI'), readme.indexOf('### Diagnostics'));
    const listed = [...run(['--help'], project.dir).out.matchAll(/^  (--[a-z-]+)/gm)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThan(5);
    for (const flag of listed) expect(section).toContain(`| \`${flag}`);
  });

  it('--watch says what it watches and keeps running until closed', () => {
    const result = run(['--watch'], project.dir);
    expect(typeof result.code).toBe('object');
    if (typeof result.code === 'object') result.code.close();
    expect(result.out.split('\n')).toEqual([
      expect.stringMatching(/^tools-codegen: (wrote|unchanged) src\/tools\.generated\.ts \(1 tool\)\.$/),
      'tools-codegen: watching src (1 directory); Ctrl-C to stop.',
    ]);
  });

  it('--flag=value reads like --flag value, and --import-extension overrides the tsconfig', () => {
    const result = run(['--project=tsconfig.json', '--import-extension=js', '--out', 'src/esm.generated.ts'], project.dir);
    expect(result).toMatchObject({ code: 0, out: 'tools-codegen: wrote src/esm.generated.ts (1 tool).' });
    expect(fs.readFileSync(path.join(project.dir, 'src', 'esm.generated.ts'), 'utf8')).toContain("import { ClockTools } from './clock.tools.js';");
  });
});

describe('a project that cannot be read is a usage error: one line, no stack, exit 2', () => {
  const project = makeTempProject({ 'src/clock.tools.ts': TOOLS, 'app/tsconfig.json': '{ "extends": "../tsconfig.json", "include": ["../src"] }' });
  afterAll(() => project.cleanup());

  it.each([
    [
      ['--project', 'nope.json'],
      "tools-codegen: nope.json: not found; run tools-codegen in the project's folder, pass the project's tsconfig file with --project <path>, " +
        'or create one (docs/getting-started.md has one with the settings toolwright needs).',
    ],
    [['--project', 'src'], "tools-codegen: src: a directory without a tsconfig.json; pass the project's tsconfig file with --project <path>, or create one there."],
  ])('%j', (args, line) => {
    expect(run(args, project.dir)).toEqual({ code: 2, out: '', err: line });
  });

  it('no tsconfig.json where the command runs: the hint does not repeat what was typed', () => {
    const empty = fs.mkdtempSync(path.join(project.dir, 'empty-'));
    for (const args of [[], ['--project', 'tsconfig.json']]) {
      const result = run(args, empty);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/^tools-codegen: tsconfig\.json: not found; /);
      expect(result.err).not.toContain('--project tsconfig.json');
      expect(result.err).toContain('create one');
    }
  });

  it('a tsconfig without experimentalDecorators: where it is missing and the flag to set', () => {
    fs.writeFileSync(path.join(project.dir, 'standard.json'), '{\n  "include": ["src"],\n  "compilerOptions": {\n    "strict": true\n  }\n}\n');
    expect(run(['--project', 'standard.json'], project.dir)).toEqual({
      code: 2,
      out: '',
      err:
        'tools-codegen: standard.json:3:3: "experimentalDecorators" is not set; set "experimentalDecorators": true in compilerOptions: ' +
        "toolwright's @Tool, @Param and @ToolGroup are TypeScript's experimental decorators, and without the flag TypeScript compiles " +
        'them as standard decorators, which cannot decorate parameters (tsc: TS1206).',
    });
  });

  it('experimentalDecorators set to false, here or in a base config: the line that says so, else compilerOptions', () => {
    fs.writeFileSync(path.join(project.dir, 'off.json'), '{\n  "extends": "./tsconfig.json",\n  "compilerOptions": {\n    "experimentalDecorators": false\n  }\n}\n');
    expect(run(['--project', 'off.json'], project.dir).err).toMatch(/^tools-codegen: off\.json:4:5: "experimentalDecorators" is not true; set "experimentalDecorators": true in compilerOptions/);
    fs.writeFileSync(path.join(project.dir, 'base-off.json'), '{ "compilerOptions": { "experimentalDecorators": false } }');
    fs.writeFileSync(path.join(project.dir, 'child.json'), '{ "extends": "./base-off.json", "include": ["src"] }');
    expect(run(['--project', 'child.json'], project.dir)).toMatchObject({ code: 2, err: expect.stringMatching(/^tools-codegen: child\.json:1:1: "experimentalDecorators" is not set; /) });
  });

  it('a tsconfig that does not parse: where and what', () => {
    const broken = path.join(project.dir, 'broken.json');
    fs.writeFileSync(broken, '{\n  "compilerOptions": { "strict": true }\n  "include": ["src"]\n}\n');
    expect(run(['--project', 'broken.json'], project.dir)).toEqual({
      code: 2,
      out: '',
      err: "tools-codegen: broken.json:3:3: ',' expected; fix the tsconfig (tsc -p reports the same).",
    });
  });

  it('an extends that cannot be read', () => {
    fs.writeFileSync(path.join(project.dir, 'orphan.json'), '{ "extends": "./missing-base.json", "include": ["src"] }');
    const result = run(['--project', 'orphan.json'], project.dir);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^tools-codegen: orphan\.json: Cannot read file '[^']*missing-base\.json'; fix the tsconfig \(tsc -p reports the same\)\.$/);
  });

  it('a directory that holds a tsconfig.json is read like tsc -p reads it', () => {
    expect(run(['--project', 'app', '--check'], project.dir)).toMatchObject({ code: 1, err: expect.stringContaining('does not exist yet') });
  });
});

describe('a project with no tools is an error, not an empty manifest', () => {
  const cleanups: Array<() => void> = [];
  afterAll(() => cleanups.forEach((cleanup) => cleanup()));
  const runIn = (files: Record<string, string>, args: string[] = []) => {
    const project = makeTempProject(files);
    cleanups.push(project.cleanup);
    return { ...run(['--project', 'tsconfig.json', ...args], project.dir), dir: project.dir };
  };

  it('says where it looked and the likely causes, and writes nothing', () => {
    const result = runIn({ 'src/clock.ts': 'export class Clock {}\n', 'lib/clock.tools.ts': TOOLS });
    expect(result.code).toBe(1);
    expect(result.err.split('\n')).toEqual([
      'tsconfig.json:1:1 error: no @Tool methods found in the 1 source file this tsconfig selects (include: ["src"]); ' +
        "check that @Tool is imported from '@toolwright/core' and that the tools files are inside \"include\".",
      'tools-codegen: 1 error, 0 warnings',
      'tools-codegen: src/tools.generated.ts was not written; fix the errors above.',
    ]);
    expect(fs.existsSync(path.join(result.dir, 'src', 'tools.generated.ts'))).toBe(false);
  });

  it('points at a @Tool that is not imported from @toolwright/core', () => {
    const result = runIn({
      'src/clock.tools.ts': TOOLS.replace("import { Param, Tool } from '@toolwright/core';", "import { Param } from '@toolwright/core';\nimport { Tool } from 'other-tools';"),
      'node_modules/other-tools/package.json': JSON.stringify({ name: 'other-tools', types: 'index.d.ts' }),
      'node_modules/other-tools/index.d.ts': 'export declare function Tool(options?: object): MethodDecorator;\n',
    });
    expect(result.code).toBe(1);
    expect(result.err.split('\n')[0]).toBe(
      "src/clock.tools.ts:11:3 error ClockTools.now: this @Tool comes from 'other-tools', not from '@toolwright/core', so the method is not a tool; import { Tool } from '@toolwright/core'.",
    );
  });

  it('a project whose only tool has errors reports those errors, not "no tools"', () => {
    const result = runIn({ 'src/clock.tools.ts': TOOLS.replace('zone: string', 'zone: Map<string, string>').replace('return zone;', 'return String(zone);') });
    expect(result.code).toBe(1);
    expect(result.err).toContain('type Map cannot be sent as JSON');
    expect(result.err).not.toContain('no @Tool methods found');
  });

  it('--check fails the same way instead of calling an empty manifest up to date', () => {
    expect(runIn({ 'src/clock.ts': 'export class Clock {}\n' }, ['--check']).code).toBe(1);
  });
});
