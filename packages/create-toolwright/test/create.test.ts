import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../src/cli';
import { TEMPLATE_NAMES } from '../src/templates';

const { version } = require('../package.json') as { version: string };

function run(args: string[], cwd: string): { code: number; out: string; err: string } {
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

function files(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

describe('create-toolwright', () => {
  let cwd: string;
  beforeEach(() => void (cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'create-toolwright-'))));
  afterEach(() => fs.rmSync(cwd, { recursive: true, force: true }));

  it('--help names every template and asks nothing', () => {
    const result = run(['--help'], cwd);
    expect(result.code).toBe(0);
    for (const name of TEMPLATE_NAMES) expect(result.out).toMatch(new RegExp(`^ +${name} `, 'm'));
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it.each(TEMPLATE_NAMES)('the %s template: a project named after its folder, on this version of toolwright, TypeScript 7 and experimentalDecorators', (template) => {
    const result = run(['My App', '--template', template], cwd);
    expect(result.code).toBe(0);
    expect(result.out).toContain("cd 'My App'\n  npm install\n  npm test\n  npm start");
    const dir = path.join(cwd, 'My App');
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('my-app');
    const deps = { ...pkg.dependencies, ...pkg.devDependencies };
    for (const name of Object.keys(deps).filter((n) => n.startsWith('@toolwright/'))) expect(deps[name]).toBe(`^${version}`);
    expect(deps).toMatchObject({ '@toolwright/core': `^${version}`, '@toolwright/codegen': `^${version}`, typescript: expect.stringMatching(/^\^7\./) });
    expect(pkg.scripts).toMatchObject({ prebuild: 'tools-codegen', pretest: 'tools-codegen', dev: expect.stringContaining('tools-codegen --watch') });
    expect(fs.readFileSync(path.join(dir, 'tsconfig.json'), 'utf8')).toContain('"experimentalDecorators": true');
    expect(files(dir)).toContain('.gitignore');
    for (const file of files(dir)) expect(fs.readFileSync(path.join(dir, file), 'utf8')).not.toMatch(/\{\{\w+\}\}/);
  });

  it('writes the node template by default, into toolwright-app without a folder name', () => {
    expect(run([], cwd).code).toBe(0);
    expect(files(path.join(cwd, 'toolwright-app'))).toEqual(
      ['.gitignore', 'README.md', 'package.json', 'src/main.ts', 'src/orders.tools.ts', 'src/scripted-model.ts', 'src/tools.ts', 'test/orders.test.ts', 'tsconfig.build.json', 'tsconfig.json', 'vitest.config.ts'].sort(),
    );
  });

  it('refuses a folder that is not empty, says why, and writes nothing', () => {
    fs.mkdirSync(path.join(cwd, 'app'));
    fs.writeFileSync(path.join(cwd, 'app', 'notes.txt'), 'mine');
    const result = run(['app'], cwd);
    expect(result).toEqual({
      code: 1,
      out: '',
      err: 'create-toolwright: app is not empty (1 entry: notes.txt); nothing was written. Choose a new folder name, or empty this one.',
    });
    expect(fs.readdirSync(path.join(cwd, 'app'))).toEqual(['notes.txt']);
  });

  it('fills an empty folder, and refuses a file', () => {
    fs.mkdirSync(path.join(cwd, 'empty'));
    expect(run(['empty'], cwd).code).toBe(0);
    fs.writeFileSync(path.join(cwd, 'file'), '');
    expect(run(['file'], cwd)).toMatchObject({ code: 1, err: 'create-toolwright: file is a file, not a folder; choose another name for the project.' });
  });

  it.each([
    [['--template', 'react'], 'there is no template "react"; choose node, nest, mcp.'],
    [['--template'], '--template needs a value: node, nest, mcp.'],
    [['--yes'], 'unknown option "--yes".'],
    [['a', 'b'], 'one folder at a time: got "a" and "b".'],
  ])('%j is a usage error: exit 2, the reason, then the help', (args, reason) => {
    const result = run(args, cwd);
    expect(result.code).toBe(2);
    expect(result.err.split('\n')[0]).toBe(`create-toolwright: ${reason}`);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it.each(['My App', "Bob's app"])('prints a "cd" that enters the new folder when pasted into a shell (%j)', (dir) => {
    const real = fs.realpathSync(cwd);
    const result = run([dir], real);
    expect(result.code).toBe(0);
    const cd = result.out.split('\n').find((line) => line.trimStart().startsWith('cd '))!.trim();
    expect(execFileSync('bash', ['-c', `${cd} && pwd`], { cwd: real, encoding: 'utf8' }).trim()).toBe(path.join(real, dir));
  });

  it('answers a folder the file system refuses with one line saying what to do, not a stack trace', () => {
    // scaffold.ts reads fs through `import * as fs`, whose getters reach node:fs's own (writable) exports.
    const nodeFs = require('node:fs') as { mkdirSync: typeof fs.mkdirSync };
    const mkdirSync = nodeFs.mkdirSync;
    nodeFs.mkdirSync = () => {
      throw Object.assign(new Error("EACCES: permission denied, mkdir '/srv/app'"), { code: 'EACCES' });
    };
    try {
      const result = run(['app'], cwd);
      expect(result.code).toBe(1);
      expect(result.err).toBe(
        "create-toolwright: could not write app: EACCES: permission denied, mkdir '/srv/app'. Pick a folder you can write to, or fix its permissions, and run again.",
      );
    } finally {
      nodeFs.mkdirSync = mkdirSync;
    }
  });
});
