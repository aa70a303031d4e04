import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpServer } from '@toolwright/mcp';
import { afterEach, expect, test } from 'vitest';
import { createTools } from '../src/tools.js';

let client: Client | undefined;
afterEach(() => client?.close());

async function connect(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(createTools(), { name: 'test', version: '0.0.0' }).connect(serverSide);
  client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

test('tools/list shows the tool with its JSDoc and schema; tools/call validates, then answers', async () => {
  const mcp = await connect();
  const { tools } = await mcp.listTools();
  expect(tools).toEqual([
    expect.objectContaining({
      name: 'orders_get_status',
      description: expect.stringContaining('Looks up a purchase order'),
      inputSchema: expect.objectContaining({ required: ['numero'] }),
    }),
  ]);
  const refused = await mcp.callTool({ name: 'orders_get_status', arguments: { numero: '1001' } });
  expect(refused.isError).toBe(true);
  expect(JSON.stringify(refused.content)).toContain('numero');
  const answered = await mcp.callTool({ name: 'orders_get_status', arguments: { numero: 'A-1001' } });
  expect(answered.isError).toBeFalsy();
  expect(JSON.stringify(answered.content)).toContain('shipped');
});
