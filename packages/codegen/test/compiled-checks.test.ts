import * as path from 'node:path';
import { ts } from 'ts-morph';
import fc from 'fast-check';
import { schemaCheck } from '../../core/src/validation/schema-check';
import type { CompiledInputCheck } from '@toolwright/core';
import { ChecksEmitter } from '../src/emit/emit-checks';
import type { ToolModel } from '../src/model/tool-model';
import type { JsonSchema } from '../src/schema/json-schema';
import { contractInput } from './support/contract-inputs';
import { FIXTURES, runFixture } from './support/fixtures';

// The checks tools-codegen compiles at build time must decide as the run time's Ajv does, and
// fail with the same errors (the model's message is built from them): for every tool of the
// contract fixture (formats, decimal multipleOf, code-point lengths, nested and recursive
// objects), on inputs made to pass and made to fail.

const RUNS = 300;
const HINTS = { coupon: fc.constantFrom('SAVE5', 'SAVE15', 'save10') };

/** The checks module as the project would run it: compiled to CommonJS, with only `@toolwright/core` to import. */
function loadChecks(code: string): Record<string, CompiledInputCheck> {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const module = { exports: {} as Record<string, CompiledInputCheck> };
  const load = (id: string): unknown => {
    if (id === '@toolwright/core') return require('@toolwright/core');
    throw new Error(`the checks module imports ${id}`);
  };
  new Function('require', 'exports', 'module', js)(load, module.exports, module);
  return module.exports;
}

describe('compiled checks', () => {
  const { result } = runFixture('contract');
  const checks = loadChecks(result.checksCode);

  it('live beside the manifest module, which imports one per entry', () => {
    expect(result.checksFile).toBe(path.join(FIXTURES, 'contract', 'src', 'tools.generated.checks.ts'));
    expect(result.code).toContain(`} from './tools.generated.checks';`);
    result.tools.forEach((_tool, index) => expect(result.code).toContain(`inputCheck: check${index},`));
    // And the run that wrote them, which the manifest module compares on import (end-to-end.test.ts).
    expect(Object.keys(checks)).toEqual([...result.tools.map((_tool, index) => `check${index}`), 'generation']);
    expect(result.code).toContain(`if (generation !== '${(checks as unknown as { generation: string }).generation}') {`);
  });

  it.each(runFixture('contract').result.tools.map((tool, index) => ({ name: tool.name, index })))(
    '$name: the same verdicts and errors as the run time',
    ({ index }) => {
      const schema = result.tools[index].inputSchema as JsonSchema;
      const compiled = checks[`check${index}`];
      const runtime = schemaCheck(JSON.parse(JSON.stringify(schema)) as object);
      const verdicts = { valid: 0, invalid: 0 };
      fc.assert(
        fc.property(contractInput(schema, HINTS), (generated) => {
          const input = JSON.parse(JSON.stringify(generated)) as unknown;
          const expected = runtime(input);
          verdicts[expected ? 'valid' : 'invalid']++;
          expect(compiled(input)).toBe(expected);
          expect(compiled.errors ?? null).toEqual(runtime.errors ?? null);
        }),
        { numRuns: RUNS },
      );
      // Both verdicts occur, or the comparison says little.
      expect(verdicts.valid).toBeGreaterThan(RUNS / 20);
      expect(verdicts.invalid).toBeGreaterThan(RUNS / 20);
    },
  );
});

describe('the checks module, for tools of one structure', () => {
  const orderSchema = (description: string): JsonSchema => ({
    type: 'object',
    properties: { numero: { type: 'string', description, pattern: '^A-\\d{4}$' } },
    required: ['numero'],
    additionalProperties: false,
  });
  const tools = [
    { name: 'buscar_pedido', inputSchema: orderSchema('The order to look up.') },
    { name: 'cancelar_pedido', inputSchema: orderSchema('The order to cancel.') },
  ] as unknown as ToolModel[];
  const code = new ChecksEmitter().emit(tools).text;

  // A function of each tool's own (a wrapper around the shared one) would be compiled by V8 on
  // that tool's first call: the first call of a further tool then pays for it on a user's request.
  it('hands the shared code itself to each tool, with its own constants as JSON text: no function of its own', () => {
    expect(code.match(/^const checkCode\d+ = /gm)).toHaveLength(1);
    expect(code).toContain('export const check0: CompiledInputCheck = toolwrightChecks.lazy(checkCode0, "{');
    expect(code).toContain('export const check1: CompiledInputCheck = toolwrightChecks.lazy(checkCode0, "{');
  });

  it("fails each tool's input with errors that point into its own schema", () => {
    const checks = loadChecks(code);
    tools.forEach((tool, index) => {
      const check = checks[`check${index}`];
      expect(check({ numero: 'A-1001' })).toBe(true);
      expect(check({ numero: 'B-1' })).toBe(false);
      expect(check.errors?.[0]).toMatchObject({ keyword: 'pattern', parentSchema: (tool.inputSchema as { properties: Record<string, unknown> }).properties.numero });
    });
  });
});
