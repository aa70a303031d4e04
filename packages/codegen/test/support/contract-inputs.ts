import fc from 'fast-check';
import type { JsonSchema } from '../../src/schema/json-schema';

/**
 * Inputs for a tool's schema, for the differential fuzz: half built to satisfy it, half mutated
 * (at every level a value may break a limit, change JSON type, lose a required key or gain an
 * unknown one). Formats come from pools of RFC edge cases on both sides of each rule; strings
 * are any Unicode graphemes. Which inputs are valid is left to the validators being compared.
 */
export function contractInput(schema: JsonSchema, hints: Hints = {}): fc.Arbitrary<unknown> {
  return fc.oneof(value(schema, schema, false, hints), value(schema, schema, true, hints));
}

/** Values for a property, by name, where only the domain knows good ones (a custom constraint's). */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const POOLS: Record<string, { good: string[]; bad: string[] }> = {
  email: {
    good: ['ana@example.com', 'b.c+tag@shop.example', `${'a'.repeat(70)}@example.com`, 'ana@localhost.localdomain'],
    bad: ['not-an-email', 'a@b', '@x.com', 'ana@', 'a b@example.com'],
  },
  uri: {
    good: ['https://example.com/a?b=1#c', 'http://localhost:3000/cb', 'urn:isbn:0451450523', 'mailto:ana@example.com', 'ftp://[::1]/x'],
    bad: ['example.com', '/relative/path', 'http://exa mple.com', '', 'https://exa<mple.com'],
  },
  uuid: {
    good: ['3f1c1a2e-8d4b-4c1e-9f2a-1b2c3d4e5f60', '00000000-0000-0000-0000-000000000000', 'urn:uuid:3f1c1a2e-8d4b-4c1e-9f2a-1b2c3d4e5f60', '3F1C1A2E-8D4B-4C1E-9F2A-1B2C3D4E5F60'],
    bad: ['not-a-uuid', '3f1c1a2e8d4b4c1e9f2a1b2c3d4e5f60', '3f1c1a2e-8d4b-4c1e-9f2a-1b2c3d4e5f6g'],
  },
  'date-time': {
    good: ['2024-05-06T07:08:09Z', '2024-05-06T07:08:09.123+02:00', '2024-05-06t07:08:09z', '2016-12-31T23:59:60Z', '2024-02-29T00:00:00-05:30', '1999-12-31 23:59:59Z'],
    bad: ['2024-02-30T00:00:00Z', '2024-05-06T07:08:09', '2024-05-06', 'true', 'yesterday', '2024-13-01T00:00:00Z', '2024-05-06T24:00:00Z'],
  },
};

/** Keys of records: ordinary ones and the names of `Object.prototype` members, which must stay data. */
const RECORD_KEYS = fc.constantFrom('weight', 'volume', 'toString', 'valueOf', 'constructor', 'prototype', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf', 'é', '名前', '');

function value(schema: JsonSchema, root: JsonSchema, mutate: boolean, hints: Hints, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shape(schema, root, mutate, hints, depth);
  if (!mutate) return shaped;
  return fc.oneof(
    { weight: 8, arbitrary: shaped },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, 0, false, '', [], {}, 'text', 1.5, -1) },
  );
}

function shape(schema: JsonSchema, root: JsonSchema, mutate: boolean, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') {
    const target = (root.$defs as Record<string, JsonSchema>)[schema.$ref.slice('#/$defs/'.length)];
    return shape(target, root, mutate, hints, depth + 1);
  }
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as JsonSchema[]).map((s) => shape(s, root, mutate, hints, depth)));
  if (Array.isArray(schema.enum)) {
    const values = schema.enum as unknown[];
    // Member names of a numeric enum, and other near misses.
    return mutate ? fc.oneof(fc.constantFrom(...values), fc.constantFrom<unknown>('Low', 'High', 'EMAIL', 4, 'other')) : fc.constantFrom(...values);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.length > 1) return fc.oneof(...types.map((type) => shape({ ...schema, type }, root, mutate, hints, depth)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringFor(schema, mutate);
    case 'integer':
    case 'number':
      return numberFor(schema, types[0] === 'integer', mutate);
    case 'array':
      return arrayFor(schema, root, mutate, hints, depth);
    case 'object':
      return objectFor(schema, root, mutate, hints, depth);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function stringFor(schema: JsonSchema, mutate: boolean): fc.Arbitrary<unknown> {
  const pool = typeof schema.format === 'string' ? POOLS[schema.format] : undefined;
  if (pool) return fc.constantFrom(...pool.good, ...(mutate ? pool.bad : []));
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 12;
  const lengthOk = (s: string) => [...s].length >= min && [...s].length <= max;
  if (typeof schema.pattern === 'string') {
    const matching = fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(lengthOk);
    return mutate ? fc.oneof(matching, fc.string({ unit: 'grapheme', maxLength: max + 2 })) : matching;
  }
  const text = fc.string({ unit: 'grapheme', minLength: Math.max(0, min - (mutate ? 1 : 0)), maxLength: max + (mutate ? 2 : 0) });
  return mutate ? text : text.filter(lengthOk);
}

function numberFor(schema: JsonSchema, integer: boolean, mutate: boolean): fc.Arbitrary<unknown> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1000;
  const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : integer ? 1 : 0;
  // Decimals as JSON writes them: n / 100 is the number the text "19.99" parses to.
  const decimals = step > 0 && step < 1
    ? fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((n) => n / Math.round(1 / step))
    : fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  if (!mutate) return fc.oneof(decimals, fc.constantFrom(min, max));
  return fc.oneof(
    decimals,
    fc.integer({ min: Math.ceil(min * 1000) - 1000, max: Math.floor(max * 1000) + 1000 }).map((n) => n / 1000),
    fc.double({ min: min - 1, max: max + 1, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(min - 1, max + 1, 0.1 + 0.2, 1e-7, 1e21),
  );
}

/** How deep inputs go: below it, a recursive type (through `$ref`) gets only what it requires, so generation ends. */
const MAX_DEPTH = 10;

function arrayFor(schema: JsonSchema, root: JsonSchema, mutate: boolean, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH && !(typeof schema.minItems === 'number' && schema.minItems > 0)) return fc.constant([]);
  if (Array.isArray(schema.prefixItems)) return fc.tuple(...(schema.prefixItems as JsonSchema[]).map((s) => value(s, root, mutate, hints, depth + 1)));
  const item = typeof schema.items === 'object' ? value(schema.items as JsonSchema, root, mutate, hints, depth + 1) : fc.jsonValue({ maxDepth: 0 });
  const slack = mutate ? 1 : 0;
  const minLength = Math.max(0, (typeof schema.minItems === 'number' ? schema.minItems : 0) - slack);
  const maxLength = Math.min((typeof schema.maxItems === 'number' ? schema.maxItems : 3) + slack, 5);
  return fc.array(item, { minLength, maxLength });
}

/**
 * Past core's `LISTED_KEYS_MIN` (128, validation/listed-keys.ts): the limits walk keeps such a
 * Record's keys, and the check and the instance builder take them from it instead of listing it.
 */
const LARGE_RECORD = 130;

/**
 * A Record of a few `entry` keys, or now and then a large one whose values repeat a few
 * `shallowEntry` values (which hold no Record), with a few named keys among them.
 */
function recordFor(entry: fc.Arbitrary<unknown>, shallowEntry: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  const large = fc.tuple(fc.array(shallowEntry, { minLength: 1, maxLength: 3 }), fc.dictionary(RECORD_KEYS, shallowEntry, { maxKeys: 2 })).map(([values, named]) => {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < LARGE_RECORD; i++) record[`key${i}`] = values[i % values.length];
    return Object.assign(record, named);
  });
  return fc.oneof({ weight: 9, arbitrary: fc.dictionary(RECORD_KEYS, entry, { maxKeys: 3 }) }, { weight: 1, arbitrary: large });
}

function objectFor(schema: JsonSchema, root: JsonSchema, mutate: boolean, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  const required = new Set((schema.required ?? []) as string[]);
  const properties = Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).filter(([key]) => depth <= MAX_DEPTH || required.has(key)));
  const fields = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, hints[key] ? fc.oneof(hints[key], value(s, root, mutate, hints, depth + 1)) : value(s, root, mutate, hints, depth + 1)]));
  const record = fc.record(fields, { requiredKeys: Object.keys(properties).filter((k) => required.has(k)) });
  const additional = typeof schema.additionalProperties === 'object' && depth <= MAX_DEPTH
    ? recordFor(
        value(schema.additionalProperties as JsonSchema, root, mutate, hints, depth + 1),
        // Past MAX_DEPTH: what a large Record holds has no Records of its own, so the input stays within the key limit.
        value(schema.additionalProperties as JsonSchema, root, mutate, hints, MAX_DEPTH + 1),
      )
    : fc.constant({});
  return fc.tuple(record, additional, fc.nat(mutate ? 10 : 0), fc.nat(mutate ? 10 : 0)).map(([known, extra, drop, add]) => {
    const result: Record<string, unknown> = {};
    for (const [key, v] of [...Object.entries(extra), ...Object.entries(known)]) Object.defineProperty(result, key, { value: v, enumerable: true, writable: true, configurable: true });
    const keys = Object.keys(result);
    if (mutate && drop === 0 && keys.length > 0) delete result[keys[0]];
    if (mutate && add === 0) result.unexpected = 1;
    return result;
  });
}
