import { Node, ts } from 'ts-morph';
import type { SourceNode } from '../lint/diagnostic';

export interface DocTag {
  /** Tag name without `@`. */
  name: string;
  /** For `@param name text`: the parameter name. */
  target?: string;
  /** The tag's text, whitespace normalized. */
  text: string;
  /** Where to point a diagnostic: the tag, or the declaration for a comment TypeScript did not attach. */
  node: SourceNode;
}

export interface DocComment {
  /** Summary and body with the tags removed and whitespace collapsed; `''` when there is none. */
  description: string;
  tags: DocTag[];
}

const EMPTY: DocComment = { description: '', tags: [] };

/**
 * The JSDoc closest to a declaration (the last block, as TypeScript itself reads it). Read from
 * the compiler's nodes: a tool's every property has a comment, and wrapping each comment and
 * tag in ts-morph nodes cost more than reading them.
 */
export function readDocComment(declaration: SourceNode | undefined): DocComment {
  if (!declaration) return EMPTY;
  const node = Node.isNode(declaration) ? declaration.compilerNode : declaration;
  const doc = JSDOCABLE.has(node.kind) ? (node as { jsDoc?: ts.JSDoc[] }).jsDoc?.at(-1) : undefined;
  if (!doc) return sameLineDocComment(node);
  const source = node.getSourceFile();
  return {
    description: normalizeWhitespace(descriptionOf(doc, source)),
    tags: (doc.tags ?? []).map((tag) => readTag(tag, source)),
  };
}

/** The kinds ts-morph reads JSDoc on (`Node.isJSDocable`); the compiler attaches comments to a few more. */
const JSDOCABLE = new Set([
  ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.CallSignature, ts.SyntaxKind.CaseClause, ts.SyntaxKind.ClassDeclaration, ts.SyntaxKind.ClassExpression,
  ts.SyntaxKind.ClassStaticBlockDeclaration, ts.SyntaxKind.Constructor, ts.SyntaxKind.ConstructSignature, ts.SyntaxKind.EnumDeclaration, ts.SyntaxKind.EnumMember,
  ts.SyntaxKind.ExportAssignment, ts.SyntaxKind.ExpressionStatement, ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.ImportEqualsDeclaration, ts.SyntaxKind.IndexSignature, ts.SyntaxKind.InterfaceDeclaration, ts.SyntaxKind.LabeledStatement, ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.MethodSignature, ts.SyntaxKind.ModuleDeclaration, ts.SyntaxKind.NamedTupleMember, ts.SyntaxKind.PropertyDeclaration, ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.SetAccessor, ts.SyntaxKind.TypeAliasDeclaration, ts.SyntaxKind.VariableStatement,
]);

/**
 * TypeScript attaches a `/** *\/` comment to a declaration only when the comment starts its
 * line, so in `interface A { /** doc *\/ x: string }` the comment is lost to the checker. A
 * comment that ends on the same line, right before the declaration, is its documentation.
 */
function sameLineDocComment(node: ts.Node): DocComment {
  if (!ts.isPropertySignature(node) && !ts.isPropertyDeclaration(node) && !ts.isEnumMember(node)) return EMPTY;
  const source = node.getSourceFile();
  const text = source.text;
  const comment = ts.getTrailingCommentRanges(text, node.pos)?.at(-1);
  if (!comment || comment.kind !== ts.SyntaxKind.MultiLineCommentTrivia || !text.startsWith('/**', comment.pos)) return EMPTY;
  if (/\n/.test(text.slice(comment.end, node.getStart(source)))) return EMPTY;
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

function readTag(tag: ts.JSDocTag, source: ts.SourceFile): DocTag {
  const name = tag.tagName.getText(source);
  if (ts.isJSDocParameterTag(tag)) {
    return { name, target: tag.name.getText(source), text: normalizeWhitespace(ts.getTextOfJSDocComment(tag.comment) ?? ''), node: tag };
  }
  return { name, text: normalizeWhitespace(rawTagText(source.text.slice(tag.getStart(source), tag.end))), node: tag };
}

/**
 * The text after `@name`, as written. TypeScript parses some tags (`@type integer`, `@default`)
 * into structures that drop parts of the text, so the raw source is the reliable reading.
 */
function rawTagText(written: string): string {
  return written
    .replace(/^@\S+/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*(?!\/)\s?/, ''))
    .join('\n')
    .replace(/\*\/\s*$/, '');
}

/**
 * The summary and body before the first tag, stars removed, exactly as ts-morph's
 * `JSDoc.getDescription()` reads it: from after `/**` to the end of the last line before the
 * first tag (or before the closing `*\/`), trailing stars and blanks left out.
 */
function descriptionOf(doc: ts.JSDoc, source: ts.SourceFile): string {
  const text = source.text;
  const first = doc.tags?.[0];
  const endSearchStart = first ? first.getStart(source) : doc.end - 2;
  let start = doc.getStart(source) + 3;
  if (text.charCodeAt(start) === SPACE) start++;
  const endOrNewLine = previousMatching(text, endSearchStart, (c) => c === NEWLINE || (!isWhitespace(c) && c !== ASTERISK));
  const end = previousMatching(text, endOrNewLine, (c) => c !== NEWLINE && c !== CARRIAGE_RETURN);
  return withoutStars(text.substring(start, Math.max(start, end)));
}

const SPACE = 0x20;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const ASTERISK = 0x2a;
/** The characters ts-morph counts as whitespace there (`StringUtils.isWhitespaceCharCode`). */
const WHITESPACE_CHARACTERS = ' \f\n\r\t\v\u00A0\u2028\u2029';
const WHITESPACE = new Set([...WHITESPACE_CHARACTERS].map((c) => c.charCodeAt(0)));
/** A line's start up to its leading `*` and one space after it; lines split at `\n` only, so a blank before the star is any other whitespace character. */
const LEADING_STAR = new RegExp(`(?<=^|\n)[${WHITESPACE_CHARACTERS.replace('\n', '')}]*\\* ?`, 'g');

function isWhitespace(code: number): boolean {
  return WHITESPACE.has(code);
}

/** Moves back from `pos` until the character before it satisfies `condition`. */
function previousMatching(text: string, pos: number, condition: (code: number) => boolean): number {
  let at = pos;
  while (at > 0 && !condition(text.charCodeAt(at - 1))) at--;
  return at;
}

/** Each line without the `*` that starts it (and one space after it), as ts-morph's `getTextWithoutStars`. */
function withoutStars(inner: string): string {
  return inner
    .replace(/^\/\*\*[^\S\n]*\n?/, '')
    .replace(/(\r?\n)?[^\S\n]*\*\/$/, '')
    .replace(LEADING_STAR, '');
}
