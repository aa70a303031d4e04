import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Generator, type GenerateResult } from '../../src/generate';

export const FIXTURES = path.join(__dirname, '..', '__fixtures__');

const runs = new Map<string, { generator: Generator; result: GenerateResult }>();

/**
 * One ts-morph Project per fixture for the whole test file: building the program is the slow
 * part, every assertion reads the same result.
 */
export function runFixture(name: string, out?: string): { generator: Generator; result: GenerateResult } {
  const key = `${name}:${out ?? ''}`;
  let run = runs.get(key);
  if (!run) {
    const generator = new Generator({ project: path.join(FIXTURES, name, 'tsconfig.json'), out, write: out !== undefined });
    run = { generator, result: generator.run() };
    runs.set(key, run);
  }
  return run;
}

/** A fake `@toolwright/core` package: enough declarations for the scanner, fast to type-check. */
const FAKE_CORE = `export declare function Tool(options?: { name?: string; effect?: 'read' | 'write'; strict?: boolean }): MethodDecorator;
export declare function Param(options?: { name?: string; description?: string; minimum?: number; maximum?: number }): ParameterDecorator;
export declare function Input(): ParameterDecorator;
export declare function Ctx(): ParameterDecorator;
export declare function ToolGroup(options?: { prefix?: string }): ClassDecorator;
`;

/**
 * A small throw-away project in the OS temp dir, resolving `@toolwright/core` through
 * `node_modules` the way an installed package does. For tests that edit files.
 */
export function makeTempProject(files: Record<string, string>): { dir: string; tsconfig: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-codegen-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('node_modules/@toolwright/core/package.json', JSON.stringify({ name: '@toolwright/core', types: 'index.d.ts' }));
  write('node_modules/@toolwright/core/index.d.ts', FAKE_CORE);
  write('tsconfig.json', JSON.stringify({
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, experimentalDecorators: true, types: [], lib: ['es2022'] },
    include: ['src'],
  }));
  for (const [file, text] of Object.entries(files)) write(file, text);
  return { dir, tsconfig: path.join(dir, 'tsconfig.json'), cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
