import { CHECK_RUNTIME_NAME, schemaProblems, standaloneCheck } from '@toolwright/core/tooling';
import { compiledCheckRuntime, type CompiledInputCheck } from '@toolwright/core';
import { schemaCheck } from '../../src/validation/schema-check';

// The run time's schema check (Ajv, compiled on first use) and the same check compiled at build
// time (`standaloneCheck`, which tools-codegen writes into the checks module) must decide alike
// on what JSON Schema 2020-12 says: formats by their RFCs, lengths in code points, `u` patterns,
// exact decimal `multipleOf`, deep equality, and every failing field reported at once.

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, pattern: '^\\p{Lu}', description: 'A capitalised name.' },
    day: { type: 'string', format: 'date' },
    price: { type: 'number', multipleOf: 0.01 },
    tags: { type: 'array', uniqueItems: true, items: { enum: [{ a: 1 }, 'x', 'y'] } },
  },
  required: ['name'],
  additionalProperties: false,
  // A keyword Ajv does not know (a vendor extension): JSON Schema says to ignore it.
  'x-toolwright-note': 'ignored',
};

const VALID = { name: 'Émile', day: '2024-02-29', price: 19.99, tags: ['x', { a: 1 }] };

/** Each input breaks one rule that only the run time's Ajv configuration decides rightly. */
const INVALID: Array<[string, Record<string, unknown>, string]> = [
  ['a lower-case initial (`\\p{Lu}` is a `u` pattern)', { name: 'émile' }, 'pattern'],
  ['one capital of one code point, two UTF-16 units (`minLength` counts code points)', { name: '𝐀' }, 'minLength'],
  ['a day February does not have (formats by their RFCs, not their shape)', { ...VALID, day: '2024-02-30' }, 'format'],
  ['a price of a tenth of a cent (`multipleOf` exact on decimals)', { ...VALID, price: 19.995 }, 'multipleOf'],
  ['the same object twice (`uniqueItems` by deep equality)', { ...VALID, tags: [{ a: 1 }, { a: 1 }] }, 'uniqueItems'],
];

/** The check `standaloneCheck` writes, made as the generated checks module makes it. */
function compiledFromSource(schema: object): CompiledInputCheck {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const make = new Function(CHECK_RUNTIME_NAME, `return (${standaloneCheck(schema)})();`);
  return make(compiledCheckRuntime) as CompiledInputCheck;
}

const failures = (check: CompiledInputCheck) => (check.errors ?? []).map(({ instancePath, keyword, params, message }) => ({ instancePath, keyword, params, message }));

describe('the run time schema check', () => {
  it('passes an input that keeps every rule, in a schema with a keyword it does not know', () => {
    expect(schemaCheck(SCHEMA)(VALID)).toBe(true);
  });

  it.each(INVALID)('refuses %s', (_, input, keyword) => {
    const check = schemaCheck(SCHEMA);
    expect(check(input)).toBe(false);
    expect(check.errors?.map((error) => error.keyword)).toEqual([keyword]);
  });

  it('reports every failing field at once, with the value and rule that failed, so one retry can fix them all', () => {
    const check = schemaCheck(SCHEMA);
    expect(check({ day: 'soon', colour: 'red' })).toBe(false);
    expect(check.errors?.map((error) => error.keyword).sort()).toEqual(['additionalProperties', 'format', 'required']);
    expect(check.errors?.find((error) => error.keyword === 'format')).toMatchObject({ data: 'soon', schema: 'date' });
  });

  // In a module of its own, so the Ajv is made inside this test: each option below then decides
  // this test's outcome (a shared Ajv is made once per file, in whichever test compiles first).
  it('is made with every option the boundary relies on', () => {
    jest.isolateModules(() => {
      const fresh = (require('../../src/validation/schema-check') as typeof import('../../src/validation/schema-check')).schemaCheck;
      const check = fresh(SCHEMA);
      // allErrors and verbose: every failing field, with the value that failed.
      expect(check({ day: 'soon', colour: 'red' })).toBe(false);
      expect(check.errors?.map((error) => error.keyword).sort()).toEqual(['additionalProperties', 'format', 'required']);
      expect(check.errors?.find((error) => error.keyword === 'format')).toMatchObject({ data: 'soon', schema: 'date' });
      // Formats by their RFCs, decimal multipleOf, u patterns.
      for (const [, input, keyword] of INVALID) {
        expect(check(input)).toBe(false);
        expect(check.errors?.map((error) => error.keyword)).toEqual([keyword]);
      }
      expect(check(VALID)).toBe(true);
      // Not checked against the meta-schema: the schemas are tools-codegen's, and that check
      // would cost most of the first compile.
      expect(() => fresh({ type: 'object', properties: { a: { type: 'string', minLength: -1 } } })).not.toThrow();
    });
  });

  it('is compiled once per schema object', () => {
    expect(schemaCheck(SCHEMA)).toBe(schemaCheck(SCHEMA));
  });
});

describe('standaloneCheck: the same check as code, compiled at build time', () => {
  it('decides every input as the run time does, with the same failures', () => {
    const compiled = compiledFromSource(SCHEMA);
    const runtime = schemaCheck(SCHEMA);
    for (const input of [VALID, ...INVALID.map(([, value]) => value), { day: 'soon', colour: 'red' }]) {
      expect(compiled(input)).toBe(runtime(input));
      expect(failures(compiled)).toEqual(failures(runtime));
    }
  });

  it('reaches helpers only through the runtime object, and leaves the schema given untouched', () => {
    const schema = structuredClone(SCHEMA);
    const code = standaloneCheck(schema);
    expect(code).not.toMatch(/require\(/);
    expect(code).toContain(`${CHECK_RUNTIME_NAME}.ucs2length`);
    expect(code).toContain(`${CHECK_RUNTIME_NAME}.equal`);
    expect(code).toMatch(/^\(\) => \{.*return validate\d+;\}$/s);
    expect(schema).toEqual(SCHEMA);
    expect(standaloneCheck(schema)).toBe(code);
  });
});

describe('standaloneCheck on a schema that needs a helper the runtime object lacks', () => {
  it('throws naming the helper, instead of writing code that would fail when loaded', () => {
    expect(() => standaloneCheck({ $async: true, type: 'object' })).toThrow(
      'standaloneCheck: the compiled check needs require("ajv/dist/runtime/validation_error"), which compiledCheckRuntime does not provide.',
    );
  });
});

describe('schemaProblems: why a value fails, as the model would read it', () => {
  it('gives one line per field, without the list dash, and none for a value that passes', () => {
    expect(schemaProblems(SCHEMA, VALID)).toEqual([]);
    expect(schemaProblems(SCHEMA, { name: 'émile', colour: 'red' })).toEqual([
      'colour: unknown field; remove it',
      expect.stringMatching(/^name: must match .*Expected: A capitalised name\. Got: "émile"$/),
    ]);
  });
});
