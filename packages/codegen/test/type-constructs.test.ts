import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ToolManifest } from '@toolwright/core';
import type { JsonSchema } from '../src/schema/json-schema';
import { FIXTURES, runFixture } from './support/fixtures';

/** A standard validator, strict about the schemas it is given: an unknown keyword or a malformed one throws. */
const ajv = new Ajv2020({ strict: true, strictTuples: false, allowUnionTypes: true, allErrors: true });
addFormats(ajv);

const types = runFixture('types');
const refused = runFixture('types-refused');

function schemaOf(result: typeof types.result, name: string): JsonSchema {
  const tool = result.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${result.tools.map((t) => t.name).join(', ')}`);
  return tool.definition.input_schema;
}

const validators = new Map<string, ValidateFunction>();
/** The tool's input_schema compiled by Ajv 2020 with formats. */
function validatorOf(name: string): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.compile(schemaOf(types.result, name));
    validators.set(name, validate);
  }
  return validate;
}

/** Checks `base` is accepted, then that each change of one property is accepted or refused as said. */
function expectInputs(tool: string, base: Record<string, unknown>, cases: { accepts?: Array<Record<string, unknown>>; refuses: Array<Record<string, unknown>> }): void {
  const validate = validatorOf(tool);
  const verdict = (input: Record<string, unknown>) => [JSON.stringify(input), validate(input)];
  expect(verdict(base)).toEqual([JSON.stringify(base), true]);
  for (const change of cases.accepts ?? []) expect(verdict({ ...base, ...change })).toEqual([JSON.stringify({ ...base, ...change }), true]);
  for (const change of cases.refuses) expect(verdict({ ...base, ...change })).toEqual([JSON.stringify({ ...base, ...change }), false]);
}

const props = (name: string) => schemaOf(types.result, name).properties as Record<string, JsonSchema>;
const tag = { type: 'object', properties: { name: { type: 'string', description: 'Tag name.' } }, required: ['name'], additionalProperties: false };

describe('types fixture: every construct gives a schema a standard validator compiles', () => {
  it('reports no errors, and warns about each undocumented nested property with its path', () => {
    expect(types.result.diagnostics.map((d) => [d.severity, d.path, d.message])).toEqual([
      ['warning', 'TypeTools.shapes → settings → undocumented', 'property has no description; add a JSDoc comment above it (/** what it is and its exact format */).'],
      ['warning', 'TypeTools.shapes → settings → nested → inner', expect.stringContaining('property has no description')],
    ]);
  });

  it('every input_schema compiles under Ajv 2020 in strict mode, with an object root, no $schema and $defs only when needed', () => {
    for (const tool of types.result.tools) {
      expect(() => validatorOf(tool.name)).not.toThrow();
      const { $defs, ...root } = tool.definition.input_schema;
      expect(Object.keys(root)).toEqual(['type', 'properties', 'required', 'additionalProperties']);
      if ($defs !== undefined) expect(Object.keys($defs as object).length).toBeGreaterThan(0);
      expect(tool.definition.input_schema.additionalProperties).toBe(false);
    }
  });

  it('no symbol-keyed member ever becomes a property', () => {
    expect(JSON.stringify(types.result.tools.map((t) => t.definition))).not.toContain('__@');
    expect(props('shapes').symbolic).toEqual({
      type: 'object', description: 'Symbol-keyed members.',
      properties: { name: { type: 'string', description: 'Its name.' } }, required: ['name'], additionalProperties: false,
    });
  });

  it('a primitive intersected with an object is the primitive; literals beside (string & {}) are any string', () => {
    expect(props('brands').userId).toEqual({ type: 'string', description: 'A branded string.' });
    expect(props('brands').amount).toEqual({ type: 'number', description: 'A branded number.' });
    expect(props('brands').flag).toEqual({ type: 'boolean', description: 'A branded boolean.' });
    expect(props('brands').size).toEqual({ type: 'string', description: 'Literals or any string.' });
    expect(props('brands').code).toEqual({ type: 'string', description: 'A branded literal.', enum: ['A1'] });
    expect(props('brands').tagged).toEqual({ type: 'array', description: 'A branded array.', items: tag });
    expectInputs('brands', { userId: 'u-1', amount: 250, flag: true, size: 'medium', sizes: ['small', 'xl'], code: 'A1', tagged: [{ name: 'red' }] }, {
      accepts: [{ size: 'small' }, { sizes: [] }],
      refuses: [{ userId: { length: 3, __brand: 'UserId' } }, { amount: '250' }, { flag: 'yes' }, { size: 3 }, { code: 'B2' }, { tagged: { length: 1 } }],
    });
  });

  it('anything array-like is an array: interfaces extending Array, ReadonlyArray, ArrayLike, Iterable, tuples', () => {
    expect(props('arrays').tags).toEqual({ type: 'array', description: 'An interface extending Array.', items: tag });
    expect(props('arrays').labels).toEqual({ type: 'array', description: 'An interface extending ReadonlyArray.', items: { type: 'string' } });
    expect(props('arrays').readonlyTags).toEqual({ type: 'array', description: 'A ReadonlyArray.', items: tag });
    expect(props('arrays').numbers).toEqual({ type: 'array', description: 'An ArrayLike.', items: { type: 'number' } });
    expect(props('arrays').words).toEqual({ type: 'array', description: 'An Iterable.', items: { type: 'string' } });
    expect(props('arrays').wordArray).toEqual({ type: 'array', description: 'A class extending Array.', items: { type: 'string' } });
    expect(props('arrays').pair).toEqual({
      type: 'array', description: 'A readonly tuple.', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 2, maxItems: 2,
    });
    expect(props('arrays').maybe).toMatchObject({ minItems: 1, maxItems: 2 });
    expectInputs('arrays', { tags: [{ name: 'a' }], labels: ['x'], readonlyTags: [], pair: ['a', 1], maybe: ['a', 2], nothing: [], numbers: [1, 2], words: ['w'], wordArray: [] }, {
      accepts: [{ maybe: ['a'] }],
      refuses: [{ tags: { length: 1, 0: { name: 'a' } } }, { labels: [1] }, { pair: ['a', 1, 2] }, { pair: [1, 'a'] }, { maybe: [] }, { nothing: ['x'] }, { words: 'w' }, { wordArray: [1] }],
    });
  });

  it('the empty tuple is an array of no items, never prefixItems: []', () => {
    expect(props('arrays').nothing).toEqual({ type: 'array', description: 'The empty tuple.', maxItems: 0 });
  });

  it('URL is a uri string', () => {
    expect(props('links').homepage).toEqual({ type: 'string', description: 'A URL.', format: 'uri' });
    expect(props('links').links).toEqual({ type: 'array', description: 'URLs.', items: { type: 'string', format: 'uri' } });
    expect(props('links').backup).toEqual({ type: ['string', 'null'], description: 'A URL or null.', format: 'uri' });
    expectInputs('links', { homepage: 'https://example.com/a', links: ['http://localhost:3000/cb'], backup: null }, {
      accepts: [{ backup: 'https://example.com' }],
      refuses: [{ homepage: 'not a url' }, { homepage: { href: 'https://example.com' } }, { links: ['example.com'] }],
    });
  });

  it('JSDoc tags on a type alias apply where it is used; the closest alias and the property itself win', () => {
    const lowercase = { pattern: '^[a-z]+$', maxLength: 20 };
    expect(props('aliases').slug).toEqual({ type: 'string', description: 'A slug.', ...lowercase });
    expect(props('aliases').long).toEqual({ type: 'string', description: 'A long slug.', ...lowercase, minLength: 3 });
    expect(props('aliases').slugs).toEqual({ type: 'array', description: 'Slugs.', items: { type: 'string', description: 'A lowercase slug.', ...lowercase } });
    expect(props('aliases').entry.properties).toEqual({
      slug: { type: 'string', description: 'Where the page lives.', ...lowercase },
      parent: { type: 'string', description: "Its parent's slug.", pattern: '^[a-z]+$', maxLength: 10 },
      alias: { type: 'string', description: 'A slug of at least three letters.', ...lowercase, minLength: 3 },
      note: { type: ['string', 'null'], description: 'A note, or null.', ...lowercase },
    });
    expect(props('aliases').list.items).toEqual({ type: 'string', description: 'A lowercase slug.', ...lowercase });
    expect((props('aliases').pair.prefixItems as JsonSchema[])[0]).toEqual({ type: 'string', description: 'A lowercase slug.', ...lowercase });
    const entry = { slug: 'home', parent: 'root', alias: 'start' };
    expectInputs('aliases', { slug: 'abc', long: 'abcd', slugs: ['a'], entry, list: ['b'], pair: ['c', 1] }, {
      accepts: [{ entry: { ...entry, note: null } }, { entry: { ...entry, note: 'hi' } }],
      refuses: [
        { slug: 'ABC' }, { slug: 'a'.repeat(21) }, { long: 'ab' }, { slugs: ['A'] }, { list: ['B'] }, { pair: ['C', 1] },
        { entry: { ...entry, parent: 'a'.repeat(11) } }, { entry: { ...entry, note: 'X' } },
      ],
    });
  });

  it('{ a: X; b?: never } | { a?: never; b: Y } gives an anyOf whose options forbid the other key', () => {
    expect(props('shapes').contact.anyOf).toEqual([
      { type: 'object', properties: { email: { type: 'string', description: 'E-mail address.' } }, required: ['email'], additionalProperties: false },
      { type: 'object', properties: { phone: { type: 'string', description: 'Phone number.' } }, required: ['phone'], additionalProperties: false },
    ]);
    expect(props('shapes').labelled).toEqual({
      type: 'object', description: 'A record with a key that must be absent.',
      properties: { reserved: { not: {} } }, additionalProperties: { type: 'string' },
    });
  });

  it('Record<string, never> is the empty object; object is any object', () => {
    expect(props('shapes').empty).toEqual({ type: 'object', description: 'An empty record.', additionalProperties: false });
    expect(props('shapes').anything).toEqual({ type: 'object', description: 'Any object.' });
  });

  it('a union that contains itself goes through $defs, like a recursive object', () => {
    const schema = schemaOf(types.result, 'recursive');
    expect(props('recursive').expr).toEqual({ $ref: '#/$defs/Expr', description: 'Nested lists of numbers.' });
    expect(schema.$defs).toEqual({
      Expr: { description: 'A number, or a list of expressions.', anyOf: [{ type: 'number' }, { type: 'array', items: { $ref: '#/$defs/Expr' } }] },
      Json: {
        description: 'Any JSON value.',
        anyOf: [
          { type: 'string' }, { type: 'number' }, { type: 'boolean' },
          { type: 'array', items: { $ref: '#/$defs/Json' } }, { type: 'object', additionalProperties: { $ref: '#/$defs/Json' } }, { type: 'null' },
        ],
      },
    });
    expectInputs('recursive', { expr: [1, [2, [3, []]]], json: { a: [1, 'b', null, { c: true }] } }, {
      accepts: [{ expr: 4 }, { json: null }],
      refuses: [{ expr: ['a'] }, { expr: [[true]] }, { expr: null }],
    });
  });

  it('JSDoc on a one-line interface is read, tags included', () => {
    expect(props('shapes').point.properties).toEqual({ x: { type: 'number', description: 'Horizontal.' }, y: { type: 'number', description: 'Vertical.' } });
    expect(props('shapes').box.properties).toEqual({
      width: { type: 'number', description: 'Width in cm.', minimum: 1 },
      height: { type: 'number', description: 'Height in cm.', maximum: 10 },
    });
  });

  it('the object shapes accept and refuse what their types say', () => {
    const base = {
      contact: { email: 'ana@example.com' }, empty: {}, anything: { any: [1] }, point: { x: 1, y: 2 }, symbolic: { name: 'n' },
      settings: { documented: 'd', undocumented: 'u', nested: { inner: 1 } }, box: { width: 1, height: 10 }, labelled: { colour: 'red' },
    };
    expectInputs('shapes', base, {
      accepts: [{ contact: { phone: '+44 20 7946 0000' } }, { anything: {} }, { labelled: {} }],
      refuses: [
        { contact: { email: 'ana@example.com', phone: '+44 20 7946 0000' } }, { contact: {} },
        { empty: { a: 1 } }, { anything: [] }, { anything: 'x' }, { anything: null },
        { box: { width: 0, height: 1 } }, { box: { width: 1, height: 11 } },
        { labelled: { reserved: 'x' } }, { labelled: { colour: 1 } },
      ],
    });
  });

  it('writes the same bytes on every run, with a new program each time', () => {
    const again = new (types.generator.constructor as typeof import('../src/generate').Generator)({ project: path.join(FIXTURES, 'types', 'tsconfig.json'), write: false }).run();
    expect(again.code).toBe(types.result.code);
    expect(JSON.stringify(again.tools.map((t) => t.definition))).toBe(JSON.stringify(types.result.tools.map((t) => t.definition)));
  });
});

describe('types fixture: the generated module', () => {
  const out = path.join(FIXTURES, 'types', 'src', 'tools.generated.ts');
  afterAll(() => fs.rmSync(out, { force: true }));

  it('type-checks with every construct in it and binds to the tools class', () => {
    const written = runFixture('types', out).result;
    expect(written.written).toBe(true);
    // ts-jest type-checks the generated module under the repository's strict tsconfig here.
    const { toolManifest } = require('./__fixtures__/types/src/tools.generated') as { toolManifest: ToolManifest };
    expect(toolManifest.entries.map((e) => e.definition.name)).toEqual(types.result.tools.map((t) => t.name));
  });
});

describe('types-refused fixture: what JSON cannot carry is an error naming the construct, the place and the fix', () => {
  const file = path.join(FIXTURES, 'types-refused', 'src', 'refused.tools.ts');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  /** The 1-based line and column where `text` first appears, so the expectations survive edits above. */
  const at = (text: string) => {
    const line = lines.findIndex((l) => l.includes(text));
    if (line < 0) throw new Error(`"${text}" is not in ${file}`);
    return { file, line: line + 1, column: lines[line].indexOf(text) + 1 };
  };
  const error = (text: string, where: string, message: string) => [{ ...at(text), severity: 'error', path: where }, message];

  it('reports each construct once, with file:line:col, the path and a fix', () => {
    const reported = refused.result.diagnostics.map(({ file: f, line, column, severity, path: p, message }) => [{ file: f, line, column, severity, path: p }, message]);
    const promise = 'take the resolved value instead: the tool receives data, not a pending computation.';
    expect(reported).toEqual([
      error('total: Promise<number>', 'RefusedTools.library → order → total', `type Promise cannot be sent as JSON; ${promise}`),
      error('@minimum abc', 'RefusedTools.names → count', '@minimum expects a number, got "abc".'),
      error('@Param() later', 'RefusedTools.library → later', `type Promise cannot be sent as JSON; ${promise}`),
      error('@Param() thenable', 'RefusedTools.library → thenable', `type PromiseLike cannot be sent as JSON; ${promise}`),
      error('@Param() pattern', 'RefusedTools.library → pattern', 'type RegExp cannot be sent as JSON; take the pattern as a string.'),
      error('@Param() cache', 'RefusedTools.library → cache', 'type WeakMap cannot be sent as JSON; use Record<string, T>.'),
      error('@Param() bytes', 'RefusedTools.library → bytes', 'type Uint8Array cannot be sent as JSON; take the bytes as a base64 string, or the numbers as number[].'),
      error('@Param() failure', 'RefusedTools.library → failure', 'type Error cannot be sent as JSON; take the message as a string.'),
      error('@Param() collator', 'RefusedTools.library → collator',
        'type Intl.Collator cannot be sent as JSON; it is a platform object with methods (compare, resolvedOptions), which JSON cannot carry; take the data it is built from (a string, a number, an array or an object of its fields).'),
      error('@Param() batch', 'RefusedTools.library → batch',
        'type Batch is an array with extra members (label), which a JSON array cannot carry; remove them, or use an object with an array property.'),
      error('@Param() level', 'RefusedTools.names → level',
        "enum member Computed.Measured = 'abc'.length has no literal value, so the schema cannot list it; give it one (Measured = 2 or Measured = 'measured')."),
      error('@Param() missing', 'RefusedTools.names → missing', 'type name NoSuchType cannot be found; import it or declare it (or fix its spelling).'),
      error('@Param() missingList', 'RefusedTools.names → missingList → []', 'type name AlsoMissing cannot be found; import it or declare it (or fix its spelling).'),
      error('gone: never', 'RefusedTools.names → impossible → gone',
        'type never cannot be sent as JSON; no value has this type; to say the key must be absent, make the property optional (key?: never).'),
      error('@Input() words', 'RefusedTools.listInput → words', 'the input of a tool must be an object type (a class or interface), not WordList.'),
      error('@Param() callable', 'RefusedTools.more → callable', 'type Function cannot be sent as JSON; a tool input carries data only; take the data the function would need.'),
      error('@Param() readonlyMap', 'RefusedTools.more → readonlyMap', 'type ReadonlyMap cannot be sent as JSON; use Record<string, T> or an array of entries.'),
      error('@Param() readonlySet', 'RefusedTools.more → readonlySet', 'type ReadonlySet cannot be sent as JSON; use an array (add @uniqueItems if the values must be distinct).'),
      error('@Param() weakSet', 'RefusedTools.more → weakSet', 'type WeakSet cannot be sent as JSON; use an array.'),
      error('@Param() weakRef', 'RefusedTools.more → weakRef', 'type WeakRef cannot be sent as JSON; take the value itself.'),
      error('@Param() buffer', 'RefusedTools.more → buffer', 'type ArrayBuffer cannot be sent as JSON; take the bytes as a base64 string.'),
      error('@Param() nodeBuffer', 'RefusedTools.more → nodeBuffer', 'type Buffer cannot be sent as JSON; take the bytes as a base64 string.'),
      error('@Param() rest', 'RefusedTools.more → rest', 'tuple [string, ...number[]] has a rest element; use an array, or a tuple of fixed length.'),
    ]);
  });

  it('never expands the members of a refused type', () => {
    const library = refused.result.tools.find((t) => t.name === 'library')!.definition.input_schema.properties as Record<string, JsonSchema>;
    for (const name of ['later', 'thenable', 'pattern', 'cache', 'bytes', 'failure', 'collator']) expect(Object.keys(library[name])).toEqual(['description']);
    expect(JSON.stringify(library)).not.toMatch(/"(then|exec|compare|message|__@[^"]*)"/);
    const more = refused.result.tools.find((t) => t.name === 'more')!.definition.input_schema.properties as Record<string, JsonSchema>;
    for (const schema of Object.values(more)) expect(Object.keys(schema)).toEqual(['description']);
  });

  it('writes nothing', () => {
    expect(refused.result.written).toBe(false);
  });
});
