/** A JSON Schema (draft 2020-12) node, as written into `input_schema`. */
export interface JsonSchema {
  [keyword: string]: unknown;
}

/**
 * Marks a schema produced for the TypeScript `Date` type. The JSON is a string; the generated
 * input class turns it back into a `Date` before the method sees it. A symbol, so it never
 * reaches the JSON that is sent.
 */
export const DATE_TYPE = Symbol('toolwright.date');

const KEY_ORDER = [
  '$ref', 'type', 'title', 'description', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength',
  'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf',
  'prefixItems', 'items', 'minItems', 'maxItems', 'uniqueItems',
  'properties', 'required', 'additionalProperties', 'anyOf', 'allOf', 'not', 'default', 'deprecated', '$defs',
];
const RANK = new Map(KEY_ORDER.map((key, index) => [key, index]));

/**
 * The same schema with its keys in one fixed order at every level (property order kept as
 * declared, `$defs` by name), so that two runs over the same code write the same bytes.
 */
export function orderKeys(schema: JsonSchema): JsonSchema {
  const keys = Object.keys(schema).sort((a, b) => (RANK.get(a) ?? 99) - (RANK.get(b) ?? 99) || a.localeCompare(b));
  const ordered: JsonSchema = {};
  for (const key of keys) ordered[key] = orderChild(key, schema[key]);
  if ((schema as { [DATE_TYPE]?: true })[DATE_TYPE]) (ordered as { [DATE_TYPE]?: true })[DATE_TYPE] = true;
  return ordered;
}

function orderChild(key: string, value: unknown): unknown {
  switch (key) {
    case 'properties':
      return mapValues(value as Record<string, JsonSchema>, orderKeys, false);
    case '$defs':
      return mapValues(value as Record<string, JsonSchema>, orderKeys, true);
    case 'items':
    case 'additionalProperties':
    case 'not':
      return isSchema(value) ? orderKeys(value) : value;
    case 'prefixItems':
    case 'anyOf':
    case 'allOf':
      return (value as JsonSchema[]).map(orderKeys);
    default:
      return value;
  }
}

function mapValues(record: Record<string, JsonSchema>, fn: (s: JsonSchema) => JsonSchema, sort: boolean): Record<string, JsonSchema> {
  const keys = Object.keys(record);
  if (sort) keys.sort();
  return Object.fromEntries(keys.map((key) => [key, fn(record[key])]));
}

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema's `type` as a list (`"string"` → `["string"]`, absent → `[]`). */
export function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

export function isNullSchema(schema: JsonSchema): boolean {
  return schema.type === 'null';
}

/** A deep copy that keeps the `Date` marker; memoized schemas are handed out as copies. */
export function cloneSchema<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneSchema) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string | symbol, unknown> = {};
  for (const [key, child] of Object.entries(value)) copy[key] = cloneSchema(child);
  if ((value as { [DATE_TYPE]?: true })[DATE_TYPE]) copy[DATE_TYPE] = true;
  return copy as T;
}

/**
 * The value as `JSON.parse(JSON.stringify(value))` would give it back, copied directly: the
 * markers and `undefined` members left out, a number JSON cannot write as `null`. Every schema
 * the definitions send is copied this way, and the text in between cost more than the copy.
 */
export function plainJson<T>(value: T): T {
  return copyJson(value) as T;
}

function copyJson(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => (isOmitted(item) ? null : copyJson(item)));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (isOmitted(child)) continue;
    // A property may be called `__proto__`; assigning it would set the copy's prototype instead.
    Object.defineProperty(copy, key, { value: copyJson(child), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** What `JSON.stringify` leaves out of an object (and writes as `null` in an array). */
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}
