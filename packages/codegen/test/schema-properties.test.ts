import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { Generator } from '../src/generate';
import { makeTempProject } from './support/fixtures';

/**
 * A TypeScript type built from the constructs the converter handles, with a JSON value of that
 * type and, where one surely exists, a JSON value that is not.
 */
type TypeTree =
  | { kind: 'string' | 'number' | 'boolean' | 'object' | 'date' | 'emptyRecord' | 'emptyTuple' }
  | { kind: 'literals' | 'openLiterals'; values: string[] }
  | { kind: 'brand'; base: 'string' | 'number' }
  | { kind: 'alias'; of: 'slug' | 'bounded' }
  | { kind: 'array' | 'arrayInterface' | 'nullable' | 'record'; inner: TypeTree }
  | { kind: 'tuple'; items: TypeTree[] }
  | { kind: 'properties'; properties: Array<{ key: string; optional: boolean; value: TypeTree }> }
  | { kind: 'eitherOr'; a: TypeTree; b: TypeTree };

const KEYS = ['id', 'name', 'count', 'tags', 'meta', 'note', 'when'];

const { tree } = fc.letrec<{ tree: TypeTree }>((tie) => ({
  tree: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'tree' },
    fc.constantFrom<TypeTree>(...(['string', 'number', 'boolean', 'object', 'date', 'emptyRecord', 'emptyTuple'] as const).map((kind) => ({ kind }))),
    fc.record({ kind: fc.constantFrom('literals' as const, 'openLiterals' as const), values: fc.uniqueArray(fc.constantFrom('red', 'green', 'blue', 'dark red'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('brand' as const), base: fc.constantFrom('string' as const, 'number' as const) }),
    fc.record({ kind: fc.constant('alias' as const), of: fc.constantFrom('slug' as const, 'bounded' as const) }),
    fc.record({ kind: fc.constantFrom('array' as const, 'arrayInterface' as const, 'nullable' as const, 'record' as const), inner: tie('tree') }),
    fc.record({ kind: fc.constant('tuple' as const), items: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }) }),
    fc.record({
      kind: fc.constant('properties' as const),
      properties: fc.uniqueArray(fc.record({ key: fc.constantFrom(...KEYS), optional: fc.boolean(), value: tie('tree') }), { selector: (p) => p.key, minLength: 1, maxLength: 3 }),
    }),
    fc.record({ kind: fc.constant('eitherOr' as const), a: tie('tree'), b: tie('tree') }),
  ),
}));

/** Writes the type, adding the declarations it needs (aliases with tags, interfaces extending Array). */
function typeText(node: TypeTree, declarations: string[]): string {
  switch (node.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'object':
      return node.kind;
    case 'date':
      return 'Date';
    case 'emptyRecord':
      return 'Record<string, never>';
    case 'emptyTuple':
      return '[]';
    case 'literals':
      return node.values.map((v) => `'${v}'`).join(' | ');
    case 'openLiterals':
      return `${node.values.map((v) => `'${v}'`).join(' | ')} | (string & {})`;
    case 'brand':
      return `(${node.base} & { readonly __brand: 'B' })`;
    case 'alias':
      return node.of === 'slug' ? 'Slug' : 'Bounded';
    case 'array':
      return `Array<${typeText(node.inner, declarations)}>`;
    case 'arrayInterface': {
      // The element first: a nested List declares itself before this one takes the next name.
      const element = typeText(node.inner, declarations);
      const name = `List${declarations.length}`;
      declarations.push(`export interface ${name} extends Array<${element}> {}`);
      return name;
    }
    case 'nullable':
      return `(${typeText(node.inner, declarations)}) | null`;
    case 'record':
      return `Record<string, ${typeText(node.inner, declarations)}>`;
    case 'tuple':
      return `[${node.items.map((i) => typeText(i, declarations)).join(', ')}]`;
    case 'properties':
      return `{ ${node.properties.map((p) => `/** The ${p.key}. */ ${p.key}${p.optional ? '?' : ''}: ${typeText(p.value, declarations)};`).join(' ')} }`;
    case 'eitherOr': {
      const a = typeText(node.a, declarations);
      const b = typeText(node.b, declarations);
      return `({ /** A. */ a: ${a}; b?: never } | { a?: never; /** B. */ b: ${b} })`;
    }
  }
}

function goodValue(node: TypeTree): unknown {
  switch (node.kind) {
    case 'string': return 'abc';
    case 'number': return 1.5;
    case 'boolean': return true;
    case 'object': return { any: [1] };
    case 'date': return '2024-01-02T03:04:05Z';
    case 'emptyRecord': return {};
    case 'emptyTuple': return [];
    case 'literals': return node.values[0];
    case 'openLiterals': return 'any other';
    case 'brand': return node.base === 'string' ? 'abc' : 2;
    case 'alias': return node.of === 'slug' ? 'abc' : 5;
    case 'array':
    case 'arrayInterface': return [goodValue(node.inner)];
    case 'nullable': return null;
    case 'record': return { key: goodValue(node.inner) };
    case 'tuple': return node.items.map(goodValue);
    case 'properties': return Object.fromEntries(node.properties.filter((p) => !p.optional).map((p) => [p.key, goodValue(p.value)]));
    case 'eitherOr': return { a: goodValue(node.a) };
  }
}

/** A value the type does not admit. */
function badValue(node: TypeTree): unknown {
  switch (node.kind) {
    case 'string':
    case 'openLiterals': return 42;
    case 'number':
    case 'boolean': return 'x';
    case 'object': return [];
    case 'date': return 'yesterday';
    case 'emptyRecord': return { key: 1 };
    case 'emptyTuple': return [1];
    case 'literals': return 'not listed';
    case 'brand': return node.base === 'string' ? 42 : 'x';
    case 'alias': return node.of === 'slug' ? 'ABC' : 11;
    case 'array':
    case 'record': return 'x';
    case 'arrayInterface': return {};
    case 'nullable': return badValue(node.inner);
    case 'tuple': return [...node.items.map(goodValue), 'extra'];
    case 'properties': return { ...(goodValue(node) as object), unexpected: 1 };
    case 'eitherOr': return { a: goodValue(node.a), b: goodValue(node.b) };
  }
}

function project(trees: TypeTree[]): Record<string, string> {
  const declarations: string[] = [];
  const methods = trees.map((t, i) => `  /**
   * Takes one generated type.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param value A value of the type.
   */
  @Tool()
  t${i}(@Param() value: ${typeText(t, declarations)}): void {}`);
  return {
    'src/types.tools.ts': `import { Param, Tool } from '@toolwright/core';

/**
 * A slug.
 * @pattern ^[a-z]+$
 * @maxLength 8
 */
export type Slug = string;

/**
 * A bounded count.
 * @minimum 0
 * @maximum 10
 */
export type Bounded = number;

${declarations.join('\n\n')}

export class GeneratedTools {
${methods.join('\n\n')}
}
`,
  };
}

const ajv = new Ajv2020({ strict: true, strictTuples: false, allowUnionTypes: true });
addFormats(ajv);

describe('schemas of generated types', () => {
  it('compile under Ajv 2020, accept a value of the type, refuse one that is not, and come out byte-identical from two programs', () => {
    fc.assert(
      fc.property(fc.array(tree, { minLength: 8, maxLength: 8 }), (trees) => {
        const temp = makeTempProject(project(trees));
        try {
          const first = new Generator({ project: temp.tsconfig, write: false }).run();
          const second = new Generator({ project: temp.tsconfig, write: false }).run();
          expect(first.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          expect(second.code).toBe(first.code);
          expect(JSON.stringify(second.tools.map((t) => t.definition))).toBe(JSON.stringify(first.tools.map((t) => t.definition)));
          trees.forEach((t, i) => {
            const validate = ajv.compile(first.tools[i].definition.input_schema);
            expect([i, validate({ value: goodValue(t) })]).toEqual([i, true]);
            expect([i, validate({ value: badValue(t) })]).toEqual([i, false]);
          });
        } finally {
          temp.cleanup();
        }
      }),
      { numRuns: 4 },
    );
  });
});
