import fc from 'fast-check';
import { Node, Project } from 'ts-morph';
import { readDocComment } from '../src/jsdoc/read-jsdoc';
import { Diagnostics } from '../src/lint/diagnostic';

// The codegen reads JSDoc from the compiler's nodes; what it reads must be exactly what
// ts-morph's JSDoc API reads (the description before the tags, stars and blanks removed; each
// tag's name, its @param target and its text), whatever the layout of the comment.

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The reading through ts-morph's wrapped JSDoc nodes, as the codegen did before. */
function viaTsMorph(node: Node) {
  const doc = Node.isJSDocable(node) ? node.getJsDocs().at(-1) : undefined;
  if (!doc) return undefined;
  return {
    description: normalize(doc.getDescription()),
    tags: doc.getTags().map((tag) => {
      const name = tag.getTagName();
      if (Node.isJSDocParameterTag(tag)) return { name, target: tag.getName(), text: normalize(tag.getCommentText() ?? '') };
      const raw = tag.getText().replace(/^@\S+/, '').split('\n').map((line) => line.replace(/^\s*\*(?!\/)\s?/, '')).join('\n').replace(/\*\/\s*$/, '');
      return { name, text: normalize(raw) };
    }),
  };
}

const blank = fc.constantFrom(' ', '  ', '\t', '\u00a0', '\u3000', '');
const word = fc.constantFrom('Reads', 'one', 'order.', 'A-1234', '*', '**', 'x*y', '{@link Foo}', 'café', '`code`');
const lineText = fc.array(fc.tuple(blank, word), { maxLength: 5 }).map((parts) => parts.map(([b, w]) => b + w).join(' '));
const tag = fc.oneof(
  fc.tuple(fc.constantFrom('param'), fc.constantFrom('x', 'options', '[x]'), lineText).map(([n, t, text]) => `@${n} ${t} ${text}`),
  fc.tuple(fc.constantFrom('minimum', 'pattern', 'example', 'deprecated', 'default', 'format'), lineText).map(([n, text]) => `@${n} ${text}`),
);
const newline = fc.constantFrom('\n', '\r\n');
const star = fc.constantFrom(' * ', ' *', '   * ', '*', ' ', '', '\t* ');
const comment = fc
  .tuple(fc.array(lineText, { maxLength: 4 }), fc.array(tag, { maxLength: 3 }), newline, star, fc.boolean(), fc.constantFrom(' */', '*/', ' **/', '\n */'))
  .map(([lines, tags, nl, prefix, oneLine, end]) =>
    oneLine ? `/** ${[...lines, ...tags].join(' ')}${end}` : `/**${nl}${[...lines, ...tags].map((l) => `${prefix}${l}`).join(nl)}${end}`,
  );

describe('readDocComment', () => {
  const project = new Project({ useInMemoryFileSystem: true });

  it('reads a comment exactly as ts-morph does', () => {
    fc.assert(
      fc.property(comment, fc.constantFrom('interface', 'class'), (doc, kind) => {
        const file = project.createSourceFile('/doc.ts', `export ${kind} A {\n  ${doc}\n  value: string;\n}\n`, { overwrite: true });
        const member = file.getInterfaces()[0]?.getProperties()[0] ?? file.getClasses()[0].getProperties()[0];
        const expected = viaTsMorph(member);
        const read = readDocComment(member);
        if (!expected) throw new Error(`no JSDoc attached in ${JSON.stringify(doc)}`);
        expect({ description: read.description, tags: read.tags.map(({ node: _node, ...rest }) => rest) }).toEqual({
          description: expected.description,
          tags: expected.tags.map((t) => ('target' in t ? t : { name: t.name, text: t.text })),
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('points a diagnostic about a tag at the tag, in the file it is in', () => {
    const file = project.createSourceFile('/at.ts', 'export interface A {\n  /**\n   * Size.\n   * @minimum 1\n   */\n  size: number;\n}\n', { overwrite: true });
    const [minimum] = readDocComment(file.getInterfaces()[0].getProperties()[0]).tags;
    const diagnostics = new Diagnostics();
    diagnostics.error(minimum.node, ['A', 'size'], 'bad minimum');
    expect(diagnostics.all).toEqual([{ severity: 'error', file: '/at.ts', line: 4, column: 6, path: 'A → size', message: 'bad minimum' }]);
  });
});
