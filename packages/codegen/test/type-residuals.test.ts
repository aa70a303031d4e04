import { generate } from '../src';
import type { JsonSchema } from '../src/schema/json-schema';
import { makeTempProject } from './support/fixtures';

// Issue 25, item 3: types that came out silently different from what TypeScript says. Each is
// now refused with the fix, or exact.

const PROMISES = `import { Param, Tool } from '@toolwright/core';
export interface A { a: string }
/** A job that is also a promise of its result. */
export interface Job extends PromiseLike<A> { /** Its id. */ id: string }
/** A deferred value, as a class. */
export class Deferred extends Promise<A> { /** Its id. */ id = ''; }
/** Something with a then method of its own. */
export interface Thenable { /** Its id. */ id: string; then(onDone: (value: A) => void): void }
export class PromiseTools {
  /**
   * Takes promise-like values in every disguise.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param mixed A promise intersected with an object.
   * @param like A PromiseLike of an object.
   * @param job An interface extending PromiseLike.
   * @param deferred A class extending Promise.
   * @param thenable An interface with a then method.
   * @param nested An object holding a promise intersection.
   */
  @Tool()
  take(
    @Param() mixed: Promise<A> & { a: string },
    @Param() like: PromiseLike<A>,
    @Param() job: Job,
    @Param() deferred: Deferred,
    @Param() thenable: Thenable,
    @Param() nested: { /** The inner one. */ inner: Promise<number> & { b: number } },
  ): void {}
}
`;

const ALIASES = `import { Param, Tool } from '@toolwright/core';
/**
 * A size name.
 * @pattern ^[a-z]{1,8}$
 */
export type Size = string;
/**
 * A slug.
 * @pattern ^[a-z-]+$
 * @maxLength 30
 */
export type Slug = string;
/** A page of items. */
export interface Page<T> { /** The items. */ items: T[]; /** The first one. */ first: T }
/** A pair, as an alias. */
export type Pair<K, V> = { /** The key. */ key: K; /** The value. */ value: V };
/** Stock by size, as an interface with an index signature. */
export interface Stock { [size: Size]: number }
export class AliasTools {
  /**
   * Takes aliases with tags through records and generics.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param bySize Prices by size.
   * @param slugs Slugs by name.
   * @param stock Stock by size.
   * @param page A page of slugs.
   * @param pair A pair of a size and a slug.
   * @param nestedPage A page of pages of slugs.
   */
  @Tool()
  take(
    @Param() bySize: Record<Size, number>,
    @Param() slugs: Record<string, Slug>,
    @Param() stock: Stock,
    @Param() page: Page<Slug>,
    @Param() pair: Pair<Size, Slug>,
    @Param() nestedPage: Page<Page<Slug>>,
  ): void {}
}
`;

const GLOBAL_SCRIPT = `/** An order, declared in a script: visible everywhere without an import. */
interface GlobalOrder {
  /** The order number. */
  id: string;
}
`;

const GLOBAL_TOOLS = (head: string) => `${head}import { Param, Tool } from '@toolwright/core';
export class GlobalTools {
  /**
   * Takes a type from a global script.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param order The order.
   */
  @Tool()
  byParam(@Param() order: GlobalOrder): void {}
}
`;

function run(files: Record<string, string>) {
  const project = makeTempProject(files);
  try {
    return generate({ project: project.tsconfig, write: false });
  } finally {
    project.cleanup();
  }
}

const errors = (result: ReturnType<typeof run>) => result.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.path, d.message]);

describe('promise-like types are refused with the fix, as Promise is', () => {
  const result = run({ 'src/promise.tools.ts': PROMISES });
  const fix = 'take the resolved value instead: the tool receives data, not a pending computation.';

  it('in every disguise: intersected, PromiseLike of an object, extended by an interface or a class, a then method', () => {
    expect(errors(result)).toEqual([
      ['PromiseTools.take → mixed', `type Promise cannot be sent as JSON; ${fix}`],
      ['PromiseTools.take → like', `type PromiseLike cannot be sent as JSON; ${fix}`],
      ['PromiseTools.take → job', `type Job is a PromiseLike, which cannot be sent as JSON; ${fix}`],
      ['PromiseTools.take → deferred', `type Deferred is a Promise, which cannot be sent as JSON; ${fix}`],
      ['PromiseTools.take → thenable', `type Thenable has a then method, so it is a PromiseLike, which cannot be sent as JSON; ${fix}`],
      ['PromiseTools.take → nested → inner', `type Promise cannot be sent as JSON; ${fix}`],
    ]);
  });
});

describe('alias tags are kept through Record keys and generic arguments', () => {
  const result = run({ 'src/alias.tools.ts': ALIASES });
  const props = () => result.tools[0].definition.input_schema.properties as Record<string, JsonSchema>;
  const slug = { type: 'string', description: 'A slug.', pattern: '^[a-z-]+$', maxLength: 30 };

  it('reports nothing', () => {
    expect(errors(result)).toEqual([]);
  });

  it('a tagged alias as the key of a Record or an index signature is propertyNames', () => {
    expect(props().bySize).toEqual({ type: 'object', description: 'Prices by size.', propertyNames: { pattern: '^[a-z]{1,8}$' }, additionalProperties: { type: 'number' } });
    expect(props().stock).toEqual({ type: 'object', description: 'Stock by size.', propertyNames: { pattern: '^[a-z]{1,8}$' }, additionalProperties: { type: 'number' } });
  });

  it('a tagged alias as the value of a Record keeps its tags', () => {
    expect(props().slugs).toEqual({ type: 'object', description: 'Slugs by name.', additionalProperties: slug });
  });

  it('a tagged alias as a generic argument keeps its tags wherever the parameter is used', () => {
    expect(props().page).toEqual({
      type: 'object', description: 'A page of slugs.',
      properties: { items: { type: 'array', description: 'The items.', items: slug }, first: { ...slug, description: 'The first one.' } },
      required: ['items', 'first'], additionalProperties: false,
    });
    expect(props().pair).toEqual({
      type: 'object', description: 'A pair of a size and a slug.',
      properties: { key: { type: 'string', description: 'The key.', pattern: '^[a-z]{1,8}$' }, value: { ...slug, description: 'The value.' } },
      required: ['key', 'value'], additionalProperties: false,
    });
    const inner = (props().nestedPage.properties as Record<string, JsonSchema>).first;
    expect((inner.properties as Record<string, JsonSchema>).first).toEqual({ ...slug, description: 'The first one.' });
  });
});

describe('a type declared in a global script file is resolved, as TypeScript resolves it', () => {
  const order = { type: 'object', description: 'The order.', properties: { id: { type: 'string', description: 'The order number.' } }, required: ['id'], additionalProperties: false };

  it.each([
    ['a script among the sources', { 'src/globals.ts': GLOBAL_SCRIPT, 'src/global.tools.ts': GLOBAL_TOOLS('') }],
    ['a declaration file among the sources', { 'src/globals.d.ts': GLOBAL_SCRIPT, 'src/global.tools.ts': GLOBAL_TOOLS('') }],
    ['a script outside "include", referenced', { 'types/globals.d.ts': GLOBAL_SCRIPT, 'src/global.tools.ts': GLOBAL_TOOLS('/// <reference path="../types/globals.d.ts" />\n') }],
  ])('%s', (_name, files) => {
    const result = run(files);
    expect(errors(result)).toEqual([]);
    expect((result.tools[0].definition.input_schema.properties as Record<string, JsonSchema>).order).toEqual(order);
  });
});
