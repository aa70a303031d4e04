import type { Diagnostics } from '../lint/diagnostic';
import { KNOWN_FORMATS, patternProblem } from '../schema/formats';
import type { Keyword } from '../schema/keywords';
import type { DocTag } from './read-jsdoc';

type TagReader = (tag: DocTag) => { value: unknown } | { problem: string };

const number: TagReader = (tag) => {
  const value = Number(tag.text);
  return tag.text !== '' && Number.isFinite(value) ? { value } : { problem: `expects a number, got "${tag.text}"` };
};
const count: TagReader = (tag) => {
  const value = Number(tag.text);
  return tag.text !== '' && Number.isInteger(value) && value >= 0 ? { value } : { problem: `expects a whole number of 0 or more, got "${tag.text}"` };
};
const positive: TagReader = (tag) => {
  const value = Number(tag.text);
  return tag.text !== '' && Number.isFinite(value) && value > 0 ? { value } : { problem: `expects a number above 0, got "${tag.text}"` };
};
const flag: TagReader = (tag) =>
  tag.text === '' || tag.text === 'true' ? { value: true } : { problem: `takes no value (or "true"), got "${tag.text}"` };
const text: TagReader = (tag) => (tag.text !== '' ? { value: tag.text } : { problem: 'needs a value' });

const READERS: Record<string, { keyword: string; read: TagReader }> = {
  minimum: { keyword: 'minimum', read: number },
  maximum: { keyword: 'maximum', read: number },
  exclusiveMinimum: { keyword: 'exclusiveMinimum', read: number },
  exclusiveMaximum: { keyword: 'exclusiveMaximum', read: number },
  multipleOf: { keyword: 'multipleOf', read: positive },
  minLength: { keyword: 'minLength', read: count },
  maxLength: { keyword: 'maxLength', read: count },
  minItems: { keyword: 'minItems', read: count },
  maxItems: { keyword: 'maxItems', read: count },
  uniqueItems: { keyword: 'uniqueItems', read: flag },
  deprecated: { keyword: 'deprecated', read: () => ({ value: true }) },
  title: { keyword: 'title', read: text },
  pattern: {
    keyword: 'pattern',
    read: (tag) => {
      const problem = tag.text === '' ? 'needs a regular expression' : patternProblem(tag.text);
      return problem ? { problem: `is not a valid regular expression: ${problem}` } : { value: tag.text };
    },
  },
  format: {
    keyword: 'format',
    read: (tag) =>
      KNOWN_FORMATS.includes(tag.text)
        ? { value: tag.text }
        : { problem: `"${tag.text}" is not a JSON Schema format; use one of ${KNOWN_FORMATS.join(', ')}` },
  },
  default: {
    keyword: 'default',
    read: (tag) => {
      try {
        return { value: JSON.parse(tag.text) };
      } catch {
        return { problem: `expects a JSON value (strings in double quotes), got ${tag.text}` };
      }
    },
  },
  type: {
    keyword: 'type',
    read: (tag) => (tag.text.replace(/[{}]/g, '').trim() === 'integer' ? { value: 'integer' } : { problem: `only "@type integer" is understood, got "@type ${tag.text}"` }),
  },
};

export interface TagReading {
  keywords: Keyword[];
  /** `@hidden`: the property is left out of the schema. */
  hidden: boolean;
}

/** The schema keywords a property's JSDoc tags ask for; bad values are reported, not guessed. */
export function keywordsFromTags(tags: readonly DocTag[], diagnostics: Diagnostics, path: readonly string[]): TagReading {
  const keywords: Keyword[] = [];
  let hidden = false;
  for (const tag of tags) {
    if (tag.name === 'hidden') {
      hidden = true;
      continue;
    }
    const reader = READERS[tag.name];
    if (!reader) continue;
    const result = reader.read(tag);
    if ('problem' in result) {
      diagnostics.error(tag.node, path, `@${tag.name} ${result.problem}.`);
      continue;
    }
    keywords.push({ name: reader.keyword, value: result.value, node: tag.node, source: `@${tag.name}` });
  }
  return { keywords, hidden };
}
