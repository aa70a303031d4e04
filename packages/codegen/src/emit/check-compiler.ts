import { standaloneCheck } from '@toolwright/core/tooling';
import { isSchema, type JsonSchema } from '../schema/json-schema';

/**
 * A compiled check split into the code that decides (the same for every schema of one structure,
 * whatever its annotations say) and the schema constants Ajv's verbose errors point into.
 */
export interface SplitCheck {
  /** `(schema0, …) => {…return validateN;}`: makes a check from its schema constants. */
  factory: string;
  /** The JSON text of each constant, in the factory's parameter order, as Ajv writes it. */
  constants: string[];
}

/** A compiled check: split, or whole when its code does not have the shape `splitCheck` reads. */
export type CompiledCheck = { split: SplitCheck } | { whole: string };

/**
 * What one compile of a structure tells about every other schema of that structure: its factory,
 * and for each constant the places in the schema whose JSON text it is (more than one when the
 * compiled schema held equal subtrees there).
 */
interface Template {
  factory: string;
  places: ReadonlyArray<ReadonlyArray<readonly string[]>>;
}

/**
 * Keywords that only annotate: Ajv (as the run time configures it, without `useDefaults` or
 * `$comment`) writes no code for them, so two schemas that differ only in these compile to the
 * same code and differ only in the schema constants the code's errors point into.
 */
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
/** Keywords whose value is one schema, an array of schemas, or a map of names to schemas. */
const SCHEMA = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties']);
const SCHEMA_ARRAY = new Set(['prefixItems', 'anyOf', 'allOf', 'oneOf']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * Compiles input checks (Ajv standalone code, see `standaloneCheck`), once per schema structure:
 * tools whose schemas differ only in annotations get the code of the first one compiled, with
 * their own schema constants cut from their own schemas at the places the first one's came from.
 * Exact by construction: the code depends on nothing the structure leaves out, and a constant
 * whose places disagree in a later schema, or that is no subtree of the first, sends that schema
 * to a compile of its own. A project's tools mostly share a handful of shapes; Ajv's compile is
 * most of what a check costs at build time.
 */
export class CheckCompiler {
  /** By structure key; `undefined`: this structure's constants could not be placed, compile each. */
  private readonly templates = new Map<string, Template | undefined>();

  compile(schema: JsonSchema): CompiledCheck {
    const key = structureKey(schema);
    if (this.templates.has(key)) {
      const template = this.templates.get(key);
      const constants = template && placedConstants(schema, template);
      if (template && constants) return { split: { factory: template.factory, constants } };
      return compiledAlone(schema);
    }
    const compiled = compiledAlone(schema);
    this.templates.set(key, 'split' in compiled ? templateOf(schema, compiled.split) : undefined);
    return compiled;
  }
}

function compiledAlone(schema: JsonSchema): CompiledCheck {
  const code = standaloneCheck(schema);
  const split = splitCheck(code);
  return split ? { split } : { whole: code };
}

/** The schema as JSON text without its annotations, wherever a schema can stand. */
function structureKey(schema: JsonSchema): string {
  return JSON.stringify(withoutAnnotations(schema));
}

function withoutAnnotations(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (ANNOTATIONS.has(key)) continue;
    if (SCHEMA.has(key)) kept[key] = withoutAnnotations(value);
    else if (SCHEMA_ARRAY.has(key) && Array.isArray(value)) kept[key] = value.map(withoutAnnotations);
    else if (SCHEMA_MAP.has(key) && isSchema(value)) kept[key] = mapOf(value);
    else kept[key] = value;
  }
  return kept;
}

function mapOf(record: Record<string, unknown>): Record<string, unknown> {
  const mapped: Record<string, unknown> = {};
  // `defineProperty`: a property may be called `__proto__`.
  for (const key of Object.keys(record)) Object.defineProperty(mapped, key, { value: withoutAnnotations(record[key]), enumerable: true });
  return mapped;
}

const EMBEDDED_CONSTANT = /\bconst schema\d+ = /;

/** For each constant of `split`, where in `schema` its text is; `undefined` when one is nowhere. */
function templateOf(schema: JsonSchema, split: SplitCheck): Template | undefined {
  // A schema Ajv compiles while compiling another (a definition a reference reaches) has its
  // constant declared where it is first used, inside the factory: the code then holds
  // annotations, and the structure cannot share it.
  if (EMBEDDED_CONSTANT.test(split.factory)) return undefined;
  const byText = new Map<string, Array<readonly string[]>>();
  const wanted = new Set(split.constants);
  const visit = (value: unknown, at: readonly string[]) => {
    if (typeof value !== 'object' || value === null) return;
    const text = ajvJson(value);
    if (wanted.has(text)) {
      const places = byText.get(text) ?? [];
      places.push(at);
      byText.set(text, places);
    }
    for (const key of Object.keys(value)) visit((value as Record<string, unknown>)[key], [...at, key]);
  };
  visit(JSON.parse(JSON.stringify(schema)), []);
  const places = split.constants.map((text) => byText.get(text));
  return places.every((p) => p !== undefined) ? { factory: split.factory, places: places as Array<Array<readonly string[]>> } : undefined;
}

/** The constants of another schema of the template's structure; `undefined` when the places of one disagree. */
function placedConstants(schema: JsonSchema, template: Template): string[] | undefined {
  const constants: string[] = [];
  for (const places of template.places) {
    const texts = new Set(places.map((at) => valueAt(schema, at)).map((value) => (value === undefined ? undefined : ajvJson(value))));
    if (texts.size !== 1 || texts.has(undefined)) return undefined;
    constants.push([...texts][0]!);
  }
  return constants;
}

function valueAt(value: unknown, at: readonly string[]): unknown {
  for (const key of at) value = Object.hasOwn(value as object, key) ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** JSON text as Ajv's standalone code writes a constant (its `safeStringify`). */
function ajvJson(value: unknown): string {
  return JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * Splits the `const schemaN = <JSON>;` declarations Ajv puts first off `compiled` (a function
 * expression of `standaloneCheck`). `undefined` when the code does not start that way, and the
 * check is then emitted whole.
 */
function splitCheck(compiled: string): SplitCheck | undefined {
  const opening = '() => {';
  if (!compiled.startsWith(opening)) return undefined;
  const names: string[] = [];
  const constants: string[] = [];
  let at = opening.length;
  for (;;) {
    const declaration = /^const (schema\d+) = /.exec(compiled.slice(at, at + 40));
    if (!declaration) break;
    const start = at + declaration[0].length;
    const end = jsonValueEnd(compiled, start);
    if (end === undefined || compiled[end] !== ';') return undefined;
    const json = compiled.slice(start, end);
    try {
      JSON.parse(json);
    } catch {
      return undefined;
    }
    names.push(declaration[1]);
    constants.push(json);
    at = end + 1;
  }
  return { factory: `(${names.join(', ')}) => {${compiled.slice(at)}`, constants };
}

/** Where the JSON object or array that starts at `start` ends (one past its closing bracket). */
function jsonValueEnd(text: string, start: number): number | undefined {
  if (text[start] !== '{' && text[start] !== '[') return undefined;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}
