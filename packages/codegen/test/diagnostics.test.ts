import * as path from 'node:path';
import { formatDiagnostic } from '../src/lint/format-diagnostics';
import { generate } from '../src';
import { FIXTURES, makeTempProject, runFixture } from './support/fixtures';

const { result } = runFixture('bad');
const file = path.join(FIXTURES, 'bad', 'src', 'bad.tools.ts');
const at = (line: number, column: number, severity: 'error' | 'warning', where: string, message: string | RegExp) =>
  expect.objectContaining({ file, line, column, severity, path: where, message: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message) });

describe('bad fixture: every problem of a run, reported together', () => {
  it('reports each problem with position, Class.method → param → property path and a reason', () => {
    expect(result.diagnostics).toEqual([
      at(18, 6, 'error', 'BadTools.unsupported → settings → retries', '@minimum expects a number, got "abc"'),
      at(23, 6, 'error', 'BadTools.unsupported → settings → code', '@pattern is not a valid regular expression'),
      at(28, 6, 'error', 'BadTools.unsupported → settings → colour', '@format "colour" is not a JSON Schema format'),
      at(48, 5, 'error', 'BadTools.unsupported → callback', 'type function (x: number) => string cannot be sent as JSON'),
      at(49, 5, 'error', 'BadTools.unsupported → lookup', 'type Map cannot be sent as JSON; use Record<string, T>'),
      at(50, 5, 'error', 'BadTools.unsupported → unique', 'type Set cannot be sent as JSON; use an array'),
      at(51, 5, 'error', 'BadTools.unsupported → key', 'type symbol cannot be sent as JSON'),
      at(52, 5, 'error', 'BadTools.unsupported → big', 'type bigint cannot be sent as JSON'),
      at(53, 5, 'error', 'BadTools.unsupported → anything', 'type any tells the model nothing about the value'),
      at(64, 14, 'error', 'BadTools.generic → value', 'open generic type T'),
      at(66, 3, 'error', 'BadTools.undocumented', 'tool name "has space" does not match /^[a-zA-Z0-9_-]{1,128}$/'),
      at(67, 3, 'error', 'BadTools.undocumented', 'the tool has no description'),
      at(67, 16, 'warning', 'BadTools.undocumented → x', 'parameter has no description; add "@param x'),
      at(71, 6, 'error', 'BadTools.first', '@example does not satisfy the input schema: count: must be number. Got: "three"'),
      at(74, 3, 'warning', 'BadTools.first', 'the description has 1 sentence; write at least 3'),
      at(74, 9, 'warning', 'BadTools.first → count', 'parameter has no description'),
      at(82, 3, 'error', 'BadTools.second', 'tool name "duplicate" is already used by BadTools.first'),
      at(91, 3, 'warning', 'LooseTools.loose → input → loose', 'no class-validator decorator: the container validates with forbidNonWhitelisted'),
    ]);
  });

  it('does not take a decorator that is merely called Tool for a tool', () => {
    expect(result.tools.map((t) => t.provider.className)).not.toContain('NotATool');
  });

  it('formats a diagnostic as file:line:col severity path: message', () => {
    const line = formatDiagnostic(result.diagnostics[0], FIXTURES);
    expect(line).toBe('bad/src/bad.tools.ts:18:6 error BadTools.unsupported → settings → retries: @minimum expects a number, got "abc".');
  });

  it('writes nothing when there are errors', () => {
    expect(result.written).toBe(false);
  });
});

describe('a property named __proto__', () => {
  const project = makeTempProject({
    'src/proto.tools.ts': `import { Param, Tool } from '@toolwright/core';
export interface Options {
  /** The name to look up. */
  name: string;
  /** A key no input may hold. */
  __proto__: string;
}
export class ProtoTools {
  /**
   * Reads by options. Use it to read. It does not write.
   * @param options What to read.
   */
  @Tool() byOptions(@Param() options: Options): string { return options.name; }

  /**
   * Reads by key. Use it to read. It does not write.
   * @param key The key.
   */
  @Tool() byKey(@Param({ name: '__proto__' }) key: string): string { return key; }
}
`,
  });
  afterAll(() => project.cleanup());

  it('is an error where it is declared: the container refuses any input holding that key', () => {
    const errors = generate({ project: project.tsconfig, write: false }).diagnostics.filter((d) => d.severity === 'error');
    const message = "a property named __proto__ can never be sent: the container refuses any input with a __proto__ key, which would set an object's prototype; rename it.";
    expect(errors.map((d) => [d.path, d.line, d.message])).toEqual([
      ['ProtoTools.byOptions → options → __proto__', 6, message],
      ['ProtoTools.byKey → __proto__', 19, message],
    ]);
  });
});
