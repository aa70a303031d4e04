import { STRICT_FORMATS } from './formats';
import { isSchema, type JsonSchema } from './json-schema';

export interface MovedKeywords {
  /** Path of the schema node inside the input, e.g. `filter → tags`. */
  path: string[];
  keywords: string[];
}

/**
 * The schema a strict tool sends: the subset the API can enforce, with every other keyword
 * written into the description as text, the way `transformJSONSchema` of `@anthropic-ai/sdk`
 * does. Returns what moved, so the user is told.
 */
export function toStrictSubset(schema: JsonSchema): { schema: JsonSchema; moved: MovedKeywords[] } {
  const moved: MovedKeywords[] = [];
  return { schema: transform(schema, [], moved), moved };
}

function transform(source: JsonSchema, path: string[], moved: MovedKeywords[]): JsonSchema {
  const rest: JsonSchema = { ...source };
  const kept: JsonSchema = {};
  const take = (key: string) => {
    const value = rest[key];
    delete rest[key];
    return value;
  };
  const defs = take('$defs');
  if (isSchema(defs)) kept.$defs = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, transform(def as JsonSchema, [...path, `$defs/${name}`], moved)]));
  const ref = take('$ref');
  if (ref !== undefined) {
    kept.$ref = ref;
    for (const key of ['description', 'title']) if (rest[key] !== undefined) kept[key] = take(key);
    return finish(kept, rest, path, moved);
  }
  if (Array.isArray(rest.enum) && (rest.enum as unknown[]).every(isPrimitive)) kept.enum = take('enum');
  if (rest.const !== undefined && isPrimitive(rest.const)) kept.const = take('const');
  const hasLiterals = 'enum' in kept || 'const' in kept;
  const type = take('type');
  const anyOf = take('anyOf');
  if (Array.isArray(anyOf)) kept.anyOf = (anyOf as JsonSchema[]).map((s, i) => transform(s, [...path, `anyOf/${i}`], moved));
  else if (!hasLiterals && type !== undefined) kept.type = type;
  for (const key of ['description', 'title']) if (rest[key] !== undefined) kept[key] = take(key);
  const types = Array.isArray(type) ? (type as string[]) : [type];
  if (types.includes('object')) {
    const properties = (take('properties') ?? {}) as Record<string, JsonSchema>;
    kept.properties = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, transform(s, [...path, key], moved)]));
    const required = take('required');
    if (required !== undefined) kept.required = required;
    // Absent means any property is allowed: say so, since the strict schema closes the object.
    if (take('additionalProperties') !== false) rest.additionalProperties = source.additionalProperties ?? true;
    kept.additionalProperties = false;
  }
  if (types.includes('string') && typeof rest.format === 'string' && STRICT_FORMATS.includes(rest.format)) kept.format = take('format');
  if (types.includes('array')) {
    const items = take('items');
    if (isSchema(items)) kept.items = transform(items, [...path, '[]'], moved);
    else if (items !== undefined) rest.items = items;
    if (rest.minItems === 0 || rest.minItems === 1) kept.minItems = take('minItems');
  }
  return finish(kept, rest, path, moved);
}

/** What is left could not be kept: it goes into the description as `{key: value, ...}`. */
function finish(kept: JsonSchema, rest: JsonSchema, path: string[], moved: MovedKeywords[]): JsonSchema {
  const keys = Object.keys(rest);
  if (keys.length === 0) return kept;
  moved.push({ path, keywords: keys });
  const text = `{${keys.map((key) => `${key}: ${JSON.stringify(rest[key])}`).join(', ')}}`;
  kept.description = kept.description ? `${kept.description}\n\n${text}` : text;
  return kept;
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}
