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

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
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
