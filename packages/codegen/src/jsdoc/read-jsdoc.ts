import { Node, ts, type JSDocTag } from 'ts-morph';

export interface DocTag {
  /** Tag name without `@`. */
  name: string;
  /** For `@param name text`: the parameter name. */
  target?: string;
  /** The tag's text, whitespace normalized. */
  text: string;
  /** Where to point a diagnostic: the tag, or the declaration for a comment TypeScript did not attach. */
  node: Node;
}

export interface DocComment {
  /** Summary and body with the tags removed and whitespace collapsed; `''` when there is none. */
  description: string;
  tags: DocTag[];
}

const EMPTY: DocComment = { description: '', tags: [] };

/** The JSDoc closest to a declaration (the last block, as TypeScript itself reads it). */
export function readDocComment(node: Node | undefined): DocComment {
  if (!node) return EMPTY;
  const doc = Node.isJSDocable(node) ? node.getJsDocs().at(-1) : undefined;
  if (!doc) return sameLineDocComment(node);
  return {
    description: normalizeWhitespace(doc.getDescription()),
    tags: doc.getTags().map(readTag),
  };
}

/**
 * TypeScript attaches a `/** *\/` comment to a declaration only when the comment starts its
 * line, so in `interface A { /** doc *\/ x: string }` the comment is lost to the checker. A
 * comment that ends on the same line, right before the declaration, is its documentation.
 */
function sameLineDocComment(node: Node): DocComment {
  if (!Node.isPropertySignature(node) && !Node.isPropertyDeclaration(node) && !Node.isEnumMember(node)) return EMPTY;
  const text = node.getSourceFile().getFullText();
  const comment = ts.getTrailingCommentRanges(text, node.getPos())?.at(-1);
  if (!comment || comment.kind !== ts.SyntaxKind.MultiLineCommentTrivia || !text.startsWith('/**', comment.pos)) return EMPTY;
  if (/\n/.test(text.slice(comment.end, node.getStart()))) return EMPTY;
  const body = text.slice(comment.pos + 3, comment.end - 2);
  const [description, ...tagTexts] = body.split(/(?:^|\s)(?=@[A-Za-z])/);
  const tags = tagTexts.map((raw): DocTag => {
    const [, name, rest] = /^@(\S+)\s*([\s\S]*)$/.exec(raw.trim())!;
    if (name !== 'param') return { name, text: normalizeWhitespace(rest), node };
    const [, target, said] = /^(\S*)\s*([\s\S]*)$/.exec(rest)!;
    return { name, target, text: normalizeWhitespace(said), node };
  });
  return { description: normalizeWhitespace(description), tags };
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
