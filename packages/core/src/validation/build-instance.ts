import type { Class, InstancePlan, ShapePlan, ValuePlan } from '../manifest/manifest.types';
import { ownKeysOf } from './listed-keys';

type Convert = (value: unknown) => unknown;

/**
 * The input object, from JSON that already passed `checkPlainInput` (which refuses a `__proto__`
 * key at any depth, so assigning each key cannot reach a prototype) and the schema check, into
 * the method's value.
 */
export type BuildInstance = (input: object) => object;

const keep: Convert = (value) => value;

/**
 * Turns an instance plan into one function, made once per tool: a walk that visits each value of
 * the input once (linear in its size, where class-transformer is quadratic in the key count),
 * converting only what the plan names. Keys are copied whatever they are called: a JSON key
 * `toString` is data, never dropped; `__proto__` never arrives (see `BuildInstance`).
 */
export function instanceBuilder(inputClass: Class, plan: InstancePlan | undefined): BuildInstance {
  const shapes = plan?.shapes ?? {};
  const built = new Map<string, Convert>();
  const valueConverter = (value: ValuePlan): Convert => {
    if (value === 'json') return keep;
    if (value === 'date') return toDate;
    if (value === 'url') return toUrl;
    if ('array' in value) {
      const item = valueConverter(value.array);
      return item === keep ? keep : (v) => (Array.isArray(v) ? v.map(item) : v);
    }
    if ('tuple' in value) {
      const items = value.tuple.map(valueConverter);
      return (v) => (Array.isArray(v) ? v.map((item, i) => (items[i] ?? keep)(item)) : v);
    }
    // Late-bound through the map, so a recursive shape can refer to itself.
    const name = value.shape;
    if (!shapes[name]) throw new Error(`instance plan: shape "${name}" is not defined; regenerate the manifest with tools-codegen.`);
    return (v) => built.get(name)!(v);
  };
  for (const name of Object.keys(shapes)) built.set(name, shapeConverter(shapes[name], valueConverter));
  const root = shapeConverter({ ...plan, class: inputClass }, valueConverter);
  return root as BuildInstance;
}

function shapeConverter(shape: ShapePlan, valueConverter: (plan: ValuePlan) => Convert): Convert {
  const properties = new Map(Object.entries(shape.properties ?? {}).map(([key, plan]) => [key, valueConverter(plan)]));
  const additional = shape.additional === undefined ? undefined : valueConverter(shape.additional);
  const cls = shape.class as (new () => object) | undefined;
  const create = cls ? () => new cls() : additional ? () => Object.create(null) as object : () => ({});
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const target = create() as Record<string, unknown>;
    for (const key of ownKeysOf(value)) {
      const convert = properties.get(key) ?? additional ?? keep;
      const converted = convert((value as Record<string, unknown>)[key]);
      target[key] = converted;
    }
    return target;
  };
}

/**
 * RFC 3339 text (already checked) into a `Date`. `Date` has no leap second: `23:59:60` (with any
 * fraction) becomes the last millisecond before the next minute, `23:59:59.999`, so it stays
 * after every instant of that minute and before the next one. It is read here, not left to
 * `Date`'s parser, which refuses it on some engines and reads it as the next minute on others.
 * `t`, `z` and a space separator are read as `T`/`Z`.
 */
function toDate(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.toUpperCase().replace(' ', 'T');
  const leap = /^(.*T\d{2}:\d{2}):60(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  return new Date(leap ? `${leap[1]}:59.999${leap[2]}` : text);
}

/** A value the schema accepts but the conversion the plan names cannot make (a URI WHATWG `URL` refuses). */
export class UnconvertibleValue extends Error {
  constructor(readonly value: unknown, readonly expected: string) {
    super(`cannot be read as ${expected}`);
  }
}

function toUrl(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return new URL(value);
  } catch {
    throw new UnconvertibleValue(value, 'a URL');
  }
}
