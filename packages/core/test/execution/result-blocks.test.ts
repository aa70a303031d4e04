import { mcpBlocksOf, shapeResult, type ResultLimits } from '../../src/execution/result';

const limits: ResultLimits = { maxChars: 1_000, maxMediaBlocks: 2, maxMediaChars: 10_000 };
const audio = { type: 'audio', source: { type: 'base64', media_type: 'audio/wav', data: 'UklGRg==' } };
const textResource = { type: 'resource', uri: 'test://notes', media_type: 'text/plain', text: 'hello' };
const pdf = { type: 'resource', uri: 'test://invoice', media_type: 'application/pdf', data: 'JVBERi0=' };
const png = { type: 'resource', uri: 'test://logo', media_type: 'image/png', data: 'iVBORw==' };
const link = { type: 'resource_link', uri: 'test://orders/A-1001', name: 'A-1001', description: 'the order' };

describe('result blocks the Claude API has no type for', () => {
  it('reach the model as the closest Claude block, or a note saying what was left out', () => {
    expect(shapeResult([audio, textResource, link], limits)).toEqual([
      { type: 'text', text: '[audio (audio/wav) not shown: the model cannot read audio]' },
      { type: 'document', title: 'test://notes', source: { type: 'text', media_type: 'text/plain', data: 'hello' } },
      { type: 'text', text: 'Resource: A-1001 <test://orders/A-1001> - the order' },
    ]);
    expect(shapeResult([pdf, png], limits)).toEqual([
      { type: 'document', title: 'test://invoice', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw==' } },
    ]);
  });

  it('are kept as returned, within the media caps, for surfaces that have them (MCP)', () => {
    expect(mcpBlocksOf([audio, textResource], limits)).toEqual([audio, textResource]);
    // Audio and blob resources count as media: the third is left out with a note.
    expect(mcpBlocksOf([audio, pdf, png], limits)).toEqual([audio, pdf, { type: 'text', text: '[1 more images or documents not shown: at most 2 per result]' }]);
    expect(mcpBlocksOf([{ type: 'text', text: 'plain' }], limits)).toBeUndefined();
  });

  it('are refused when malformed, as any block is', () => {
    expect(() => shapeResult([{ type: 'resource', uri: 'test://x', text: 'a', data: 'b' }], limits)).toThrow(/exactly one of `text` and `data`/);
    expect(() => shapeResult([{ type: 'audio', source: { type: 'url', url: 'x' } }], limits)).toThrow(/base64/);
  });
});
