import type { ErrorObject } from 'ajv';
import type { ValidationError } from 'class-validator';

const MAX_VALUE_CHARS = 40;
const MAX_MESSAGE_CHARS = 1_000;

/**
 * One line per failing field: its path, what failed, the expected format (the property's
 * description from the schema the model was given) and the value received, short.
 */
export function describeValidationErrors(errors: readonly ValidationError[], schema: unknown): string[] {
  const lines: string[] = [];
  const visit = (error: ValidationError, parentPath: string, parentSchema: unknown) => {
    const isIndex = /^\d+$/.test(error.property);
    const path = isIndex ? `${parentPath}[${error.property}]` : parentPath ? `${parentPath}.${error.property}` : error.property;
    const propertySchema = childSchema(parentSchema, error.property, isIndex, schema);
    if (error.constraints) lines.push(describeField(path, error, resolve(propertySchema, schema)));
    for (const child of error.children ?? []) visit(child, path, propertySchema);
  };
  for (const error of errors) visit(error, '', schema);
  return capLines(lines);
}

/**
 * The schema check's errors in the same economy: one line per field, the first rule it broke.
 * Errors inside an `anyOf` that failed as a whole are folded into that one line.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[], schema: unknown, input: unknown): string[] {
  const failedAnyOf = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.schemaPath);
  const byField = new Map<string, { error: ErrorObject; segments: string[] }>();
  for (const error of errors) {
    if (failedAnyOf.some((p) => error.schemaPath.startsWith(`${p}/`))) continue;
    const segments = pointerSegments(error.instancePath);
    const key = error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty
      : error.keyword === 'additionalProperties' ? (error.params as { additionalProperty: string }).additionalProperty
      : undefined;
    if (key !== undefined) segments.push(key);
    const path = segments.map((s, i) => (/^\d+$/.test(s) && i > 0 ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
    if (!byField.has(path)) byField.set(path, { error, segments });
  }
  const lines: string[] = [];
  for (const [path, { error, segments }] of byField) {
    const field = path === '' ? '(input)' : path;
    if (error.keyword === 'additionalProperties') {
      lines.push(`- ${field}: unknown field; remove it`);
      continue;
    }
    const description = descriptionAt(schema, segments);
    const expected = description ? ` Expected: ${sentence(description)}` : '';
    if (error.keyword === 'required') {
      lines.push(`- ${field}: required but missing.${expected}`);
      continue;
    }
    lines.push(`- ${field}: ${sentence(schemaRule(error))}${expected} Got: ${preview(valueAt(input, segments))}`);
  }
  return capLines(lines);
}

const FORMAT_NAMES: Record<string, string> = {
  'date-time': 'an RFC 3339 date-time with an offset, like 2024-05-06T07:08:09Z',
  date: 'an RFC 3339 date, like 2024-05-06',
  time: 'an RFC 3339 time with an offset, like 07:08:09Z',
  email: 'an e-mail address',
  uri: 'an absolute URI (RFC 3986), like https://example.com/x',
  uuid: 'a UUID (RFC 4122)',
};

function schemaRule(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${String(params.type).split(',').join(' or ')}`;
    case 'enum':
      return `must be one of ${preview(error.schema, MAX_VALUE_CHARS * 2)}`;
    case 'const':
      return `must be ${preview(params.allowedValue)}`;
    case 'format':
      return `must be ${FORMAT_NAMES[String(params.format)] ?? `a valid ${String(params.format)}`}`;
    case 'multipleOf':
      return `must be a multiple of ${String(error.schema)}`;
    case 'pattern':
      return `must match /${String(error.schema)}/`;
    case 'minLength':
      return `must be at least ${String(error.schema)} characters long`;
    case 'maxLength':
      return `must be at most ${String(error.schema)} characters long`;
    case 'minimum':
      return `must not be less than ${String(error.schema)}`;
    case 'maximum':
      return `must not be greater than ${String(error.schema)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(error.schema)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(error.schema)}`;
    case 'minItems':
      return `must have at least ${String(error.schema)} items`;
    case 'maxItems':
      return `must have at most ${String(error.schema)} items`;
    case 'uniqueItems':
      return 'must not contain the same item twice';
    case 'minProperties':
      return `must have at least ${String(error.schema)} properties`;
    case 'maxProperties':
      return `must have at most ${String(error.schema)} properties`;
    case 'anyOf':
    case 'oneOf':
      return 'matches none of the allowed forms';
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(input: unknown, segments: readonly string[]): unknown {
  let value = input;
  for (const segment of segments) value = (value as Record<string, unknown> | undefined)?.[segment];
  return value;
}

/** The description the model was given for the value at `segments`, through properties, items and `$ref`s. */
function descriptionAt(root: unknown, segments: readonly string[]): string | undefined {
  let node: unknown = root;
  for (const segment of segments) {
    const isIndex = /^\d+$/.test(segment);
    const schema = resolve(node, root) as Schema & { prefixItems?: unknown[]; additionalProperties?: unknown } | undefined;
    if (!schema) return undefined;
    if (isIndex && (schema.prefixItems || schema.items)) node = schema.prefixItems?.[Number(segment)] ?? schema.items;
    else node = childSchema(schema, segment, false, root) ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    if (node === undefined) return undefined;
  }
  const description = (resolve(node, root) as { description?: unknown } | undefined)?.description ?? (node as { description?: unknown }).description;
  return typeof description === 'string' ? description : undefined;
}

function describeField(path: string, error: ValidationError, schema: unknown): string {
  const constraints = error.constraints ?? {};
  if (constraints.whitelistValidation) return `- ${path}: unknown field; remove it`;
  const description = (schema as { description?: unknown } | undefined)?.description;
  const expected = typeof description === 'string' ? ` Expected: ${sentence(description)}` : '';
  // Every constraint fails on a missing value; listing them all would only cost tokens.
  if (error.value === undefined) return `- ${path}: required but missing.${expected}`;
  const failed = Object.values(constraints)
    .map((m) => (m.startsWith(`${error.property} `) ? m.slice(error.property.length + 1) : m))
    .join('; ');
  return `- ${path}: ${sentence(failed)}${expected} Got: ${preview(error.value)}`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function preview(value: unknown, max = MAX_VALUE_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function capLines(lines: string[]): string[] {
  const kept: string[] = [];
  let total = 0;
  for (const line of lines) {
    if (total + line.length > MAX_MESSAGE_CHARS) {
      kept.push(`- …and ${lines.length - kept.length} more`);
      break;
    }
    kept.push(line);
    total += line.length + 1;
  }
  return kept;
}

type Schema = { properties?: Record<string, unknown>; items?: unknown; $ref?: string; anyOf?: unknown[] };

function childSchema(parent: unknown, property: string, isIndex: boolean, root: unknown): unknown {
  const schema = resolve(parent, root) as Schema | undefined;
  if (!schema) return undefined;
  if (isIndex) return schema.items;
  if (schema.properties?.[property]) return schema.properties[property];
  for (const option of schema.anyOf ?? []) {
    const found = childSchema(option, property, false, root);
    if (found) return found;
  }
  return undefined;
}

/** Follows a local `$ref` (`#/$defs/Name`) so nested and recursive types keep their descriptions. */
function resolve(schema: unknown, root: unknown): unknown {
  const s = schema as Schema | undefined;
  if (!s || typeof s.$ref !== 'string' || !root) return s;
  const target = s.$ref.replace(/^#\//, '').split('/').reduce<any>((node, key) => node?.[key], root);
  return target ?? s;
}
