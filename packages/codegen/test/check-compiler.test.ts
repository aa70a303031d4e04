import fc from 'fast-check';
import * as tooling from '@toolwright/core/tooling';
import { CheckCompiler } from '../src/emit/check-compiler';
import type { JsonSchema } from '../src/schema/json-schema';
import { runFixture } from './support/fixtures';

// The checks module compiles each schema structure once and gives the other tools of that
// structure the same code with their own schema constants. That must be exactly what compiling
// each tool on its own writes, whatever the annotations say, and it must save the compiles.

const FIXTURE_SCHEMAS: JsonSchema[] = ['contract', 'catalog', 'features', 'recursive', 'types'].flatMap((name) =>
  runFixture(name).result.tools.map((tool) => tool.inputSchema),
);

/** Annotation text, with what JSON and Ajv's constants escape: quotes, backslashes, U+2028/9. */
const annotation = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', 'same', 'a "quoted" \\ word', 'line\u2028separator\u2029', '</script>', '${x}'),
);

/**
 * `schema` with each annotation (where a schema stands, never a property named like one)
 * rewritten from `pick`; the structure is untouched.
 */
function reannotated(schema: unknown, pick: () => string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => reannotated(s, pick));
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' || key === 'title') copy[key] = pick();
    else if (key === 'examples') copy[key] = [pick()];
    else if (key === 'properties' || key === '$defs') copy[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, reannotated(v, pick)]));
    else if (key === 'enum' || key === 'const' || key === 'default') copy[key] = value;
    else copy[key] = reannotated(value, pick);
  }
  return copy;
}

/** The paths of the values that decide (not annotations, not `type`, `$ref` or `format`, which must stay valid). */
function decidingLeaves(schema: unknown, at: string[] = []): string[][] {
  if (typeof schema !== 'object' || schema === null) return typeof schema === 'string' || typeof schema === 'number' || typeof schema === 'boolean' ? [at] : [];
  return Object.entries(schema).flatMap(([key, value]) =>
    ['description', 'title', 'examples', 'default', 'type', '$ref', 'format'].includes(key) && at[at.length - 1] !== 'properties' ? [] : decidingLeaves(value, [...at, key]),
  );
}

/** `schema` with the value at `at` changed, staying of its kind. */
function withChanged(schema: unknown, at: readonly string[]): unknown {
  if (at.length === 0) return typeof schema === 'number' ? schema + 1 : typeof schema === 'boolean' ? !schema : `${String(schema)}x`;
  const [key, ...rest] = at;
  if (Array.isArray(schema)) return schema.map((item, index) => (String(index) === key ? withChanged(item, rest) : item));
  return { ...(schema as object), [key]: withChanged((schema as Record<string, unknown>)[key], rest) };
}

/** A fresh compiler compiles the schema on its own: the reference. */
const alone = (schema: JsonSchema) => new CheckCompiler().compile(schema);

describe('CheckCompiler', () => {
  it('gives a schema of a known structure exactly the check it would get compiled alone', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIXTURE_SCHEMAS), fc.array(annotation, { minLength: 1, maxLength: 20 }), (schema, texts) => {
        let next = 0;
        const variant = reannotated(schema, () => texts[next++ % texts.length]) as JsonSchema;
        const compiler = new CheckCompiler();
        compiler.compile(schema);
        expect(compiler.compile(variant)).toEqual(alone(variant));
      }),
      { numRuns: 60 },
    );
  });

  it('never gives a schema the code of another that differs in what decides', () => {
    const changes = FIXTURE_SCHEMAS.flatMap((schema) => decidingLeaves(schema).map((at) => ({ schema, at })));
    fc.assert(
      fc.property(fc.constantFrom(...changes), ({ schema, at }) => {
        const changed = withChanged(schema, at) as JsonSchema;
        let expected;
        try {
          expected = alone(changed);
        } catch {
          return; // not a schema Ajv compiles any more
        }
        const compiler = new CheckCompiler();
        compiler.compile(schema);
        expect(compiler.compile(changed)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('compiles a structure without definitions once', () => {
    // A definition a reference reaches gets its constant inside the code (see `templateOf`).
    const flat = FIXTURE_SCHEMAS.filter((schema) => schema.$defs === undefined);
    expect(flat.length).toBeGreaterThan(10);
    const spy = jest.spyOn(tooling, 'standaloneCheck');
    try {
      const compiler = new CheckCompiler();
      for (const schema of flat) compiler.compile(schema);
      const compiles = spy.mock.calls.length;
      for (const [index, schema] of flat.entries()) compiler.compile(reannotated(schema, () => `other ${index}`) as JsonSchema);
      expect(spy.mock.calls.length).toBe(compiles);
    } finally {
      spy.mockRestore();
    }
  });

  it('compiles alone a schema whose constant could come from two places that now differ', () => {
    // A recursive definition is a function of its own in Ajv's code, with its schema as a
    // constant; property \`b\` holds the same text in the first schema, and comes first.
    const node = (description: string) => ({ type: 'object', description, properties: { next: { $ref: '#/$defs/Node' } } });
    const schema = (a: string, b: string): JsonSchema => ({
      type: 'object',
      properties: { a: { $ref: '#/$defs/Node' }, b: node(b) },
      $defs: { Node: node(a) },
    });
    const compiler = new CheckCompiler();
    compiler.compile(schema('same', 'same'));
    const variant = schema('first', 'second');
    const compiled = compiler.compile(variant);
    expect(compiled).toEqual(alone(variant));
    expect(JSON.stringify(compiled)).toContain('second');
  });
});
