import fc from 'fast-check';
import type { JsonSchema } from '../../src/schema/json-schema';

const EMAILS = { good: ['ana@example.com', 'b.c@shop.example'], bad: ['not-an-email', 'a@b', '@x.com'] };
const URIS = { good: ['https://example.com/a', 'http://shop.example'], bad: ['example.com', 'ftp//broken', 'https://'] };

/**
 * Inputs for a schema: half of them built to satisfy it, half "noisy", where at every level a
 * value may step over a limit, be replaced by arbitrary JSON, lose a required key or gain an
 * unknown one. Which inputs are valid is left to the validators being compared.
 */
export function inputFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof(valueFor(schema, schema, 0, false), valueFor(schema, schema, 0, true));
}

function valueFor(schema: JsonSchema, root: JsonSchema, depth: number, noisy: boolean): fc.Arbitrary<unknown> {
  if (!noisy) return shaped(schema, root, depth, false);
  return fc.oneof({ weight: 6, arbitrary: shaped(schema, root, depth, true) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) });
}

function shaped(schema: JsonSchema, root: JsonSchema, depth: number, noisy: boolean): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') {
    const target = (root.$defs as Record<string, JsonSchema>)[schema.$ref.slice('#/$defs/'.length)];
    return depth > 3 ? fc.constant({ name: 'leaf', children: [] }) : shaped(target, root, depth + 1, noisy);
  }
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as JsonSchema[]).map((s) => shaped(s, root, depth, noisy)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.length > 1) return fc.oneof(...types.map((type) => shaped({ ...schema, type }, root, depth, noisy)));
  const slack = noisy ? 1 : 0;
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringFor(schema, noisy);
    case 'integer':
      return fc.integer({ min: num(schema.minimum, -1000) - slack, max: num(schema.maximum, 1000) + slack });
    case 'number':
      return numberFor(schema, noisy);
    case 'array':
      return arrayFor(schema, root, depth, noisy);
    case 'object':
      return objectFor(schema, root, depth, noisy);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function stringFor(schema: JsonSchema, noisy: boolean): fc.Arbitrary<unknown> {
  const pick = (pool: { good: string[]; bad: string[] }) => fc.constantFrom(...pool.good, ...(noisy ? pool.bad : []));
  if (schema.format === 'email') return pick(EMAILS);
  if (schema.format === 'uri') return pick(URIS);
  if (schema.format === 'uuid') return noisy ? fc.oneof(fc.uuid(), fc.constant('not-a-uuid')) : fc.uuid();
  if (schema.format === 'date-time') {
    const dates = fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
    return noisy ? fc.oneof(dates, fc.constant('yesterday')) : dates;
  }
  const min = num(schema.minLength, 0);
  const max = num(schema.maxLength, 12);
  if (typeof schema.pattern === 'string') {
    const matching = fc.stringMatching(new RegExp(schema.pattern, 'u')).filter((s) => [...s].length >= min && [...s].length <= max);
    return noisy ? fc.oneof(matching, fc.string({ maxLength: max + 2 })) : matching;
  }
  return noisy ? fc.string({ minLength: Math.max(0, min - 1), maxLength: max + 1 }) : fc.string({ minLength: min, maxLength: max, unit: 'grapheme-ascii' });
}

function numberFor(schema: JsonSchema, noisy: boolean): fc.Arbitrary<unknown> {
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? 1 : 0;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' ? 1 : 0;
  const min = num(schema.minimum ?? schema.exclusiveMinimum, -1000);
  const max = num(schema.maximum ?? schema.exclusiveMaximum, 1000);
  const step = num(schema.multipleOf, 0);
  if (step > 0) {
    const multiples = fc.integer({ min: Math.ceil(min / step) + exclusiveMin, max: Math.floor(max / step) - exclusiveMax }).map((n) => n * step);
    return noisy ? fc.oneof(multiples, multiples.map((n) => n + 1), fc.constantFrom(min, max)) : multiples;
  }
  const inRange = fc.integer({ min: Math.ceil(min) + exclusiveMin, max: Math.floor(max) - exclusiveMax });
  return noisy ? fc.oneof(inRange, fc.double({ min: min - 1, max: max + 1, noNaN: true }), fc.constantFrom(min, max)) : inRange;
}

function arrayFor(schema: JsonSchema, root: JsonSchema, depth: number, noisy: boolean): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.prefixItems)) {
    const tuple = fc.tuple(...(schema.prefixItems as JsonSchema[]).map((s) => valueFor(s, root, depth + 1, noisy)));
    return noisy ? fc.oneof(tuple, fc.array(fc.integer(), { maxLength: 3 })) : tuple;
  }
  const slack = noisy ? 1 : 0;
  const item = typeof schema.items === 'object' ? valueFor(schema.items as JsonSchema, root, depth + 1, noisy) : fc.jsonValue({ maxDepth: 0 });
  const constraints = { minLength: Math.max(0, num(schema.minItems, 0) - slack), maxLength: Math.min(num(schema.maxItems, 3) + slack, 4) };
  return schema.uniqueItems && !noisy ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(item, constraints);
}

function objectFor(schema: JsonSchema, root: JsonSchema, depth: number, noisy: boolean): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const shape = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, valueFor(s, root, depth + 1, noisy)]));
  const record = fc.record(shape, { requiredKeys: Object.keys(properties).filter((k) => required.has(k)) });
  const extra = typeof schema.additionalProperties === 'object'
    ? fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), valueFor(schema.additionalProperties as JsonSchema, root, depth + 1, noisy), { maxKeys: 2 })
    : fc.constant({});
  return fc.tuple(record, extra, fc.nat(noisy ? 12 : 0), fc.nat(noisy ? 12 : 0)).map(([value, more, drop, add]) => {
    const result: Record<string, unknown> = { ...more, ...value };
    const keys = Object.keys(result);
    if (noisy && drop === 0 && keys.length > 0) delete result[keys[0]];
    if (noisy && add === 0) result.unexpected = 1;
    return result;
  });
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}
