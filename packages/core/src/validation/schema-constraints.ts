import { ValidateBy, buildMessage, isISO8601, type ValidationOptions } from 'class-validator';

/**
 * Run-time support for the input classes tools-codegen writes: the constraints class-validator
 * has no decorator for (exclusive limits, `multipleOf` on fractions, unions, records, tuples,
 * recursive types) and the `Date` conversion. Kept here so every generated module imports one
 * tested copy instead of carrying its own.
 */

export type SchemaNode = { [keyword: string]: unknown };

/** A constraint class-validator has no decorator for, with a message in its style. */
export function Check(name: string, message: string, test: (value: unknown) => boolean, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name, validator: { validate: test, defaultMessage: buildMessage((each) => `${each}$property ${message}`, options) } }, options);
}

/**
 * JSON Schema check for the keywords tools-codegen writes, for shapes decorators cannot express.
 * `root` carries the `$defs` that `$ref`s point into.
 */
export function matchesSchema(value: unknown, schema: SchemaNode, root: SchemaNode): boolean {
  if (typeof schema.$ref === 'string') {
    return matchesSchema(value, (root.$defs as Record<string, SchemaNode>)[schema.$ref.slice('#/$defs/'.length)], root);
  }
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((option) => matchesSchema(value, option as SchemaNode, root))) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  if ('const' in schema && schema.const !== value) return false;
  if (schema.type !== undefined && !([] as unknown[]).concat(schema.type).some((type) => hasJsonType(value, type as string))) return false;
  if (typeof value === 'string') {
    // Code points, as JSON Schema counts length, not UTF-16 units.
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return false;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return false;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false;
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return false;
    if (typeof schema.multipleOf === 'number' && value % schema.multipleOf !== 0) return false;
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) return false;
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return false;
    if (schema.uniqueItems === true && new Set(value.map((item) => JSON.stringify(item))).size !== value.length) return false;
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as SchemaNode[]) : [];
    if (!prefix.every((item, i) => i >= value.length || matchesSchema(value[i], item, root))) return false;
    if (schema.items === false && value.length > prefix.length) return false;
    const items = schema.items;
    if (typeof items === 'object' && items !== null && !value.slice(prefix.length).every((item) => matchesSchema(item, items as SchemaNode, root))) return false;
  }
  if (hasJsonType(value, 'object')) {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, SchemaNode>;
    if (Array.isArray(schema.required) && !schema.required.every((key) => object[key as string] !== undefined)) return false;
    for (const [key, item] of Object.entries(object)) {
      const known = Object.prototype.hasOwnProperty.call(properties, key);
      if (known && !matchesSchema(item, properties[key], root)) return false;
      if (!known && schema.additionalProperties === false) return false;
      if (!known && typeof schema.additionalProperties === 'object' && !matchesSchema(item, schema.additionalProperties as SchemaNode, root)) return false;
    }
  }
  return true;
}

function hasJsonType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

/** ISO 8601 text becomes a `Date`; anything else is left for @IsDate() to refuse. */
export function toDate(value: unknown): unknown {
  return typeof value === 'string' && isISO8601(value, { strict: true }) ? new Date(value) : value;
}
