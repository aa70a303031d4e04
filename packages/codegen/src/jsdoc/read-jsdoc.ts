import { Node, type JSDocTag } from 'ts-morph';

export interface DocTag {
  /** Tag name without `@`. */
  name: string;
  /** For `@param name text`: the parameter name. */
  target?: string;
  /** The tag's text, whitespace normalized. */
  text: string;
  node: JSDocTag;
}

export interface DocComment {
  /** Summary and body with the tags removed and whitespace collapsed; `''` when there is none. */
  description: string;
  tags: DocTag[];
}

const EMPTY: DocComment = { description: '', tags: [] };

/** The JSDoc closest to a declaration (the last block, as TypeScript itself reads it). */
export function readDocComment(node: Node | undefined): DocComment {
  if (!node || !Node.isJSDocable(node)) return EMPTY;
  const doc = node.getJsDocs().at(-1);
  if (!doc) return EMPTY;
  return {
    description: normalizeWhitespace(doc.getDescription()),
    tags: doc.getTags().map(readTag),
  };
}

function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function readTag(tag: JSDocTag): DocTag {
  const name = tagName(tag);
  if (Node.isJSDocParameterTag(tag)) {
    return { name, target: tag.getName(), text: normalizeWhitespace(tag.getCommentText() ?? ''), node: tag };
  }
  return { name, text: normalizeWhitespace(rawTagText(tag)), node: tag };
}

/** `tag.getTagName()`, read from the compiler node: wrapping each tag's name node cost more than the rest of the tag. */
function tagName(tag: JSDocTag): string {
  return tag.compilerNode.tagName.getText(tag.getSourceFile().compilerNode);
}

/**
 * The text after `@name`, as written. TypeScript parses some tags (`@type integer`, `@default`)
 * into structures that drop parts of the text, so the raw source is the reliable reading.
 */
function rawTagText(tag: JSDocTag): string {
  return tag
    .getText()
    .replace(/^@\S+/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*(?!\/)\s?/, ''))
    .join('\n')
    .replace(/\*\/\s*$/, '');
}
