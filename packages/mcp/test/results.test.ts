import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolContainer, defineToolManifest } from '@toolwright/core';
import { createMcpServer, type McpServerOptions } from '@toolwright/mcp';
import { ShopTools, shopManifest } from '../../core/test/fixtures/shop';
import { silentLogger } from './fixtures/probe-tools';

/** The core shop fixture over MCP, `echo` (maxResultChars 50) declaring an object output when asked. */
async function connect(echoOutputSchema?: Record<string, unknown>, options: Partial<McpServerOptions> = {}) {
  const entries = shopManifest.entries.map((e) => (e.method === 'echo' && echoOutputSchema ? { ...e, outputSchema: echoOutputSchema } : e));
  const tools = new ToolContainer({ manifest: defineToolManifest(entries), providers: [new ShopTools()], logger: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(tools, { name: 'shop', version: '1.0.0', ...options }).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  await client.listTools();
  return client;
}

describe('tools/call results', () => {
  it('cuts a long result at maxResultChars like the Claude path, and then sends no structuredContent', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { value: { text: 'x'.repeat(100) } } });
    expect(result.structuredContent).toBeUndefined();
    expect(result.isError).toBeUndefined();
    expect((result.content as Array<{ text: string }>)[0].text).toMatch(/^\{"text":"x{41}\n\[truncated: \d+ more characters not shown\]$/);
    await client.close();
  });

  it('answers a cut result of a tool with an outputSchema as an error, which the SDK client accepts', async () => {
    const client = await connect({ type: 'object' });
    const result = await client.callTool({ name: 'echo', arguments: { value: { text: 'x'.repeat(100) } } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('[truncated:') }] });
    const short = await client.callTool({ name: 'echo', arguments: { value: { n: 1 } } });
    expect(short).toEqual({ content: [{ type: 'text', text: '{"n":1}' }], structuredContent: { n: 1 } });
    await client.close();
  });

  it('passes content blocks as MCP text and image blocks, arrays without structuredContent', async () => {
    const client = await connect();
    await expect(client.callTool({ name: 'echo', arguments: { value: { kind: 'blocks' } } })).resolves.toEqual({
      content: [{ type: 'text', text: 'see image' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }],
    });
    await expect(client.callTool({ name: 'echo', arguments: { value: [1, 2] } })).resolves.toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
    await client.close();
  });

  it('hides an unexpected exception behind the generic message, as on the Claude path', async () => {
    const client = await connect();
    await expect(client.callTool({ name: 'fail', arguments: { how: 'type-error' } })).resolves.toEqual({
      content: [{ type: 'text', text: 'Internal error in fail. It was logged; do not retry with the same input.' }],
      isError: true,
    });
    await client.close();
  });

  it('refuses the call, and logs why, when the auth mapper throws', async () => {
    const errors: unknown[][] = [];
    const logger = { error: (...args: unknown[]) => void errors.push(args), warn: () => undefined };
    const client = await connect(undefined, { logger, auth: () => { throw new Error('session store down'); } });
    await expect(client.callTool({ name: 'echo', arguments: {} })).resolves.toEqual({
      content: [{ type: 'text', text: 'Not allowed: echo could not authenticate this call.' }],
      isError: true,
    });
    expect(errors).toEqual([[expect.stringContaining('auth mapper failed for echo'), new Error('session store down')]]);
    await client.close();
  });
});
