import type { LiteralValue } from '../scan/literal-value';
import type { Diagnostics } from '../lint/diagnostic';
import type { ScannedTool } from '../scan/find-tools';
import type { DocComment } from '../jsdoc/read-jsdoc';
import type { ToolDefinition } from './tool-model';

/** The callers `allowed_callers` accepts in @anthropic-ai/sdk 1.14. */
const CALLERS = ['direct', 'code_execution_20250825', 'code_execution_20260120', 'code_execution_20260521'];

/** Words too common to tell one tool from another in a search. */
const STOP_WORDS = new Set(
  'the and for with from this that use when what not does are its into you your will can any all one per via uses used only also then than them they de do da das dos em um uma para com por que não nem ou os as no na nos nas se ao'.split(' '),
);

/**
 * The description the model and the tool search see: the JSDoc text, then its `@keywords`
 * (comma- or space-separated) as a last sentence, since the search reads names and descriptions.
 */
export function withKeywords(doc: DocComment): string {
  const keywords = doc.tags
    .filter((t) => t.name === 'keywords')
    .flatMap((t) => t.text.split(/[,\s]+/))
    .filter(Boolean);
  if (keywords.length === 0) return doc.description;
  const sentence = `Keywords: ${[...new Set(keywords)].join(', ')}.`;
  return doc.description ? `${doc.description} ${sentence}` : sentence;
}

/** `callers`, `deferLoading` and `eagerInputStreaming` as definition fields, each checked. */
export function apiFeatureFields(
  tool: ScannedTool,
  options: Record<string, LiteralValue>,
  name: string,
  description: string,
  path: readonly string[],
  diagnostics: Diagnostics,
): Partial<ToolDefinition> {
  const fields: Partial<ToolDefinition> = {};
  const { callers, deferLoading, eagerInputStreaming } = options;
  if (callers !== undefined) {
    if (Array.isArray(callers) && callers.length > 0 && callers.every((c) => typeof c === 'string' && CALLERS.includes(c))) {
      fields.allowed_callers = callers as string[];
    } else {
      diagnostics.error(tool.toolDecorator, path, `@Tool callers must be a non-empty list of ${CALLERS.map((c) => `'${c}'`).join(', ')}, got ${JSON.stringify(callers)}.`);
    }
  }
  for (const [option, field, value] of [
    ['deferLoading', 'defer_loading', deferLoading],
    ['eagerInputStreaming', 'eager_input_streaming', eagerInputStreaming],
  ] as const) {
    if (value === undefined || value === false) continue;
    if (value === true) fields[field] = true;
    else diagnostics.error(tool.toolDecorator, path, `@Tool ${option} must be true or false, got ${JSON.stringify(value)}.`);
  }
  if (fields.defer_loading && searchableWords(name, description).length === 0) {
    diagnostics.warning(
      tool.method.getNameNode(),
      path,
      'deferred tool: the tool search reads only its name and description, and the description adds no word to match; ' +
        'describe what it does in words a user would search for, or add "@keywords <word>, <word>" to its JSDoc.',
    );
  }
  return fields;
}

/**
 * The words of the description a search could match that the name does not already hold; a word
 * sharing its first four letters with a part of the name (`emite`, `emitir`) adds nothing.
 */
function searchableWords(name: string, description: string): string[] {
  const stem = (word: string) => word.slice(0, 4);
  const inName = new Set(name.toLowerCase().split(/[^a-z0-9]+/).map(stem));
  return description
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w) && !inName.has(stem(w)));
}
