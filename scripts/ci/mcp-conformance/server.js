// The conformance suite's tools (names and results as its scenarios ask), served by toolwright
// over Streamable HTTP on loopback: node scripts/ci/mcp-conformance/server.js <port>
'use strict';
const root = require('node:path').resolve(__dirname, '../../..');
require(require.resolve('reflect-metadata', { paths: [root + '/packages/mcp'] }));
const http = require('node:http');
const path = require('node:path');

const { Tool, Ctx, Param, ToolContainer, ToolError, defineToolManifest } = require(path.join(root, 'packages/core/dist/index.js'));
const { createMcpServer, mcpHttpHandler } = require(path.join(root, 'packages/mcp/dist/index.js'));

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class ConformanceTools {
  testSimpleText() { return 'This is a simple text response for testing.'; }
  testImageContent() { return [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]; }
  testAudioContent() { return [{ type: 'audio', source: { type: 'base64', media_type: 'audio/wav', data: WAV } }]; }
  testEmbeddedResource() { return [{ type: 'resource', uri: 'test://embedded-resource', media_type: 'text/plain', text: 'This is an embedded resource content.' }]; }
  testMultipleContentTypes() {
    return [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'resource', uri: 'test://mixed-content-resource', media_type: 'application/json', text: '{"test":"data","value":123}' },
    ];
  }
  async testToolWithLogging(ctx) {
    await ctx.log('info', 'Tool execution started');
    await sleep(50);
    await ctx.log('info', 'Tool processing data');
    await sleep(50);
    await ctx.log('info', 'Tool execution completed');
    return 'Logging test completed';
  }
  async testToolWithProgress(ctx) {
    await ctx.progress(0, 100);
    await sleep(50);
    await ctx.progress(50, 100);
    await sleep(50);
    await ctx.progress(100, 100);
    return 'Progress test completed';
  }
  testErrorHandling() { throw new ToolError('This tool intentionally returns an error for testing'); }
  async testElicitation(message, ctx) {
    if (!ctx.elicit) throw new ToolError('This client cannot show forms.');
    const answer = await ctx.elicit({ message, schema: { type: 'object', properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } }, required: ['username', 'email'] } });
    return `User response: action=${answer.action}${answer.action === 'accept' ? `, content=${JSON.stringify(answer.content)}` : ''}`;
  }
  async testElicitationSep1034Defaults(ctx) {
    const properties = {
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean', default: true },
    };
    return completed(await ctx.elicit({ message: 'Please review your details', schema: { type: 'object', properties } }));
  }
  async testElicitationSep1330Enums(ctx) {
    const properties = {
      untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      titledSingle: { type: 'string', oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }] },
      legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
      untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
      titledMulti: { type: 'array', items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' }, { const: 'value3', title: 'Third Choice' }] } },
    };
    return completed(await ctx.elicit({ message: 'Pick your options', schema: { type: 'object', properties } }));
  }
  // SEP-1699: still running when its stream is closed (closeCallStreamsAfterMs below), so the answer comes on the client's reconnection.
  async testReconnection() {
    await sleep(400);
    return 'Reconnection test completed';
  }
}

const completed = (answer) => `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;

const empty = { type: 'object', properties: {}, additionalProperties: false };
const entries = [
  ['testSimpleText', 'test_simple_text'],
  ['testImageContent', 'test_image_content'],
  ['testAudioContent', 'test_audio_content'],
  ['testEmbeddedResource', 'test_embedded_resource'],
  ['testMultipleContentTypes', 'test_multiple_content_types'],
  ['testToolWithLogging', 'test_tool_with_logging', [{ kind: 'ctx' }]],
  ['testToolWithProgress', 'test_tool_with_progress', [{ kind: 'ctx' }]],
  ['testErrorHandling', 'test_error_handling'],
  ['testElicitationSep1034Defaults', 'test_elicitation_sep1034_defaults', [{ kind: 'ctx' }]],
  ['testElicitationSep1330Enums', 'test_elicitation_sep1330_enums', [{ kind: 'ctx' }]],
  ['testReconnection', 'test_reconnection'],
  ['testElicitation', 'test_elicitation', [{ kind: 'param', property: 'message' }, { kind: 'ctx' }], { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false }],
];
class EmptyInput {}
for (const [method, , parameters = []] of entries) {
  const descriptor = Object.getOwnPropertyDescriptor(ConformanceTools.prototype, method);
  parameters.forEach((p, index) => (p.kind === 'ctx' ? Ctx() : Param())(ConformanceTools.prototype, method, index));
  Tool({ effect: 'read' })(ConformanceTools.prototype, method, descriptor);
}
const manifest = defineToolManifest(
  entries.map(([method, name, parameters = [], schema = empty]) => ({
    provider: ConformanceTools,
    method,
    definition: { name, description: `Conformance tool ${name}.`, input_schema: schema },
    effect: 'read',
    inputClass: EmptyInput,
    parameters,
  })),
);

const tools = new ToolContainer({ manifest, providers: [new ConformanceTools()] });
const handler = mcpHttpHandler(createMcpServer(tools, { name: 'toolwright-conformance', version: '1.0.0' }), { resumability: { retryMs: 200, closeCallStreamsAfterMs: 100 } });
const server = http.createServer((req, res) => void handler(req, res));
server.listen(Number(process.argv[2] ?? 3999), '127.0.0.1', () => console.error(`conformance fixture on http://127.0.0.1:${server.address().port}/mcp`));
process.on('SIGTERM', () => { void handler.close(); server.closeAllConnections(); server.close(); });
