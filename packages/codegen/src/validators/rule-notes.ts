import { isSchema, type JsonSchema } from '../schema/json-schema';

/**
 * A rule a decorator checks beyond any JSON Schema keyword travels through the schema builder
 * as a keyword with this prefix, so it lands on the exact schema node of its property (or of
 * its items, with `{ each: true }`); `foldRuleNotes` then moves it into that node's description.
 */
export const RULE_NOTE_PREFIX = 'x-toolwright-rule:';

const SUBSCHEMA_MAPS = ['properties', '$defs'];
const SUBSCHEMA_LISTS = ['prefixItems', 'anyOf', 'allOf', 'oneOf'];
const SUBSCHEMAS = ['items', 'additionalProperties', 'not'];

/** Appends every rule note to its node's description and removes the notes, in place. */
export function foldRuleNotes(schema: JsonSchema): JsonSchema {
  const notes = Object.keys(schema).filter((key) => key.startsWith(RULE_NOTE_PREFIX)).sort();
  if (notes.length > 0) {
    const texts = notes.map((key) => schema[key] as string);
    for (const key of notes) delete schema[key];
    schema.description = [typeof schema.description === 'string' ? sentence(schema.description) : '', ...texts].filter(Boolean).join(' ');
  }
  for (const key of SUBSCHEMA_MAPS) {
    if (isSchema(schema[key])) for (const child of Object.values(schema[key] as Record<string, unknown>)) if (isSchema(child)) foldRuleNotes(child);
  }
  for (const key of SUBSCHEMA_LISTS) {
    if (Array.isArray(schema[key])) for (const child of schema[key] as unknown[]) if (isSchema(child)) foldRuleNotes(child);
  }
  for (const key of SUBSCHEMAS) if (isSchema(schema[key])) foldRuleNotes(schema[key] as JsonSchema);
  return schema;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
