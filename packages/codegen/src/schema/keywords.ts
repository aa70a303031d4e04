import type { Diagnostics, SourceNode } from '../lint/diagnostic';
import { isSchema, typesOf, type JsonSchema } from './json-schema';

/**
 * One constraint read from the code (a JSDoc tag, a class-validator decorator, a `@Param`
 * option), already checked and converted to its JSON Schema keyword.
 */
export interface Keyword {
  name: string;
  value: unknown;
  /** Where it was written, for diagnostics. */
  node: SourceNode;
  /** How the user wrote it (`@minimum`, `@Min()`, `@Param({ minimum })`), for messages. */
  source: string;
  /** class-validator `{ each: true }`: the constraint is on every item of an array. */
  each?: boolean;
}

const APPLIES_TO: Record<string, readonly string[]> = {
  minLength: ['string'],
  maxLength: ['string'],
  pattern: ['string'],
  format: ['string'],
  minimum: ['number', 'integer'],
  maximum: ['number', 'integer'],
  exclusiveMinimum: ['number', 'integer'],
  exclusiveMaximum: ['number', 'integer'],
  multipleOf: ['number', 'integer'],
  minItems: ['array'],
  maxItems: ['array'],
  uniqueItems: ['array'],
};

/** Keys a keyword can assert about the type itself; checked against the TypeScript type. */
const TYPE_ASSERTIONS: Record<string, readonly string[]> = {
  string: ['string'],
  number: ['number', 'integer'],
  integer: ['number', 'integer'],
  boolean: ['boolean'],
  array: ['array'],
  object: ['object'],
};

/**
 * Writes the keywords into the schema of one property. The result does not depend on the order
 * the keywords were written in: they are applied sorted by name, and two sources that disagree on
 * the same keyword are reported instead of one silently winning.
 */
export function applyKeywords(
  schema: JsonSchema,
  keywords: readonly Keyword[],
  diagnostics: Diagnostics,
  path: readonly string[],
): JsonSchema {
  const sorted = [...keywords].sort((a, b) => a.name.localeCompare(b.name) || Number(a.each) - Number(b.each));
  const seen = new Map<string, Keyword>();
  for (const keyword of sorted) {
    const key = `${keyword.each ? 'each:' : ''}${keyword.name}${keyword.name === 'type' ? `:${keyword.value}` : ''}`;
    const earlier = seen.get(key);
    if (earlier && JSON.stringify(earlier.value) !== JSON.stringify(keyword.value)) {
      diagnostics.error(keyword.node, path,
        `${keyword.source} says ${keyword.name} ${JSON.stringify(keyword.value)} but ${earlier.source} says ${JSON.stringify(earlier.value)}; keep one.`);
      continue;
    }
    seen.set(key, keyword);
    const target = keyword.each ? itemsOf(schema) : valueSchemaOf(schema);
    if (!target) {
      diagnostics.error(keyword.node, path, `${keyword.source} with { each: true } needs an array property; remove "each" or make the property an array.`);
      continue;
    }
    apply(target, keyword, diagnostics, path);
  }
  return schema;
}

function apply(target: JsonSchema, keyword: Keyword, diagnostics: Diagnostics, path: readonly string[]): void {
  const types = typesOf(target).filter((t) => t !== 'null');
  if (keyword.name === 'type') {
    const wanted = keyword.value as string;
    if (types.length > 0 && !types.some((t) => TYPE_ASSERTIONS[wanted].includes(t))) {
      diagnostics.error(keyword.node, path, `${keyword.source} says ${wanted} but the TypeScript type is ${types.join(' | ')}; make them agree.`);
      return;
    }
    if (wanted === 'integer') target.type = Array.isArray(target.type) ? typesOf(target).map((t) => (t === 'number' ? 'integer' : t)) : 'integer';
    return;
  }
  const appliesTo = APPLIES_TO[keyword.name];
  if (appliesTo && types.length > 0 && !types.some((t) => appliesTo.includes(t))) {
    diagnostics.error(keyword.node, path, `${keyword.source} applies to ${appliesTo.join(' or ')} values but the property is ${types.join(' | ')}; remove it or change the type.`);
    return;
  }
  target[keyword.name] = keyword.name === 'enum' && typesOf(target).includes('null') ? [...(keyword.value as unknown[]), null] : keyword.value;
}

/** The part of `T | null` a constraint is about: the `T`. */
function valueSchemaOf(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf) {
    const nonNull = anyOf.filter((s) => s.type !== 'null');
    if (nonNull.length === 1 && !nonNull[0].$ref) return nonNull[0];
  }
  return schema;
}

function itemsOf(schema: JsonSchema): JsonSchema | undefined {
  const value = valueSchemaOf(schema);
  return isSchema(value.items) ? value.items : undefined;
}
