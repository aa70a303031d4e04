import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Ctx, Tool, ToolContainer, defineToolManifest, type ToolContext } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { silentLogger } from './fixtures/probe-tools';
import { httpClient, listen, verifier } from './support/clients';

// ctx.toolUseId is "the idempotency key to pass to downstream systems" (DESIGN.md). Over MCP it
// must then differ between any two clients' calls, even when their JSON-RPC ids are the same
// (every SDK client counts from 0): two users of a sessions: 'stateless' endpoint, two launches
// of a stdio server, two sessions. A payment API would otherwise drop the second user's charge as
// a duplicate, or hand it the first one's stored response. A request sent again under the same id
// on the same connection keeps its key, so the downstream system can de-duplicate it.

class KeyedTools {
  /** Charges the signed-in customer; passes ctx.toolUseId downstream as the idempotency key. */
  @Tool({ effect: 'write' })
  async charge(@Ctx() ctx: ToolContext): Promise<{ idempotencyKey: string }> {
    return { idempotencyKey: ctx.toolUseId };
  }
}

const manifest = defineToolManifest([
  {
    provider: KeyedTools,
    method: 'charge',
    definition: { name: 'charge', description: 'Charges the customer.', input_schema: { type: 'object', properties: {}, additionalProperties: false } },
    effect: 'write',
    inputClass: class ChargeInput {},
    parameters: [{ kind: 'ctx' }],
  },
]);

const keyOf = (result: unknown) => (result as { structuredContent: { idempotencyKey: string } }).structuredContent.idempotencyKey;

describe('ctx.toolUseId over MCP 2025-11-25', () => {
  const tools = new ToolContainer({ manifest, providers: [new KeyedTools()], logger: silentLogger });

  it('differs between two users\' calls on a sessions: "stateless" endpoint', async () => {
    const http = await listen(createMcpServer(tools, { name: 'keys', version: '1.0.0' }), { verifier, sessions: 'stateless' });
    const [ana, bruno] = [await httpClient(http.url, 't-ana'), await httpClient(http.url, 't-bruno')];
    try {
      const anas = keyOf(await ana.callTool({ name: 'charge', arguments: {} }));
      const brunos = keyOf(await bruno.callTool({ name: 'charge', arguments: {} }));
      expect(brunos).not.toBe(anas);
    } finally {
      await Promise.all([ana.close(), bruno.close()]);
      await http.close();
    }
  });

  it('differs between the first calls of two stdio-style connections (two launches of a desktop server)', async () => {
    const keys: string[] = [];
    for (let launch = 0; launch < 2; launch++) {
      // What serveStdio does: one SDK server per connection, no session id.
      const server = createMcpServer(tools, { name: 'keys', version: '1.0.0' });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'desktop', version: '1.0.0' });
      await client.connect(clientSide);
      keys.push(keyOf(await client.callTool({ name: 'charge', arguments: {} })));
      await client.close();
      await server.close();
    }
    expect(keys[1]).not.toBe(keys[0]);
  });
  it('differs between two sessions, and never carries the Mcp-Session-Id to the tool', async () => {
    const http = await listen(createMcpServer(tools, { name: 'keys', version: '1.0.0' }), { verifier });
    const [ana, bruno] = [await httpClient(http.url, 't-ana'), await httpClient(http.url, 't-ana')];
    try {
      const anas = keyOf(await ana.callTool({ name: 'charge', arguments: {} }));
      const brunos = keyOf(await bruno.callTool({ name: 'charge', arguments: {} }));
      expect(brunos).not.toBe(anas);
      for (const [client, key] of [[ana, anas], [bruno, brunos]] as const) {
        const sessionId = (client.transport as { sessionId?: string }).sessionId;
        expect(sessionId).toBeTruthy();
        expect(key).not.toContain(sessionId);
      }
    } finally {
      await Promise.all([ana.close(), bruno.close()]);
      await http.close();
    }
  });

  it('stays the same for a request sent again under the same JSON-RPC id on one connection, and differs for ids 1 and "1"', async () => {
    const server = createMcpServer(tools, { name: 'keys', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const sdkServer = await server.connect(serverSide);
    const answers = new Map<string, (message: JSONRPCMessage) => void>();
    clientSide.onmessage = (message) => {
      if ('id' in message && !('method' in message)) answers.get(JSON.stringify(message.id))?.(message);
    };
    await clientSide.start();
    const request = (id: number | string, method: string, params: object) =>
      new Promise<JSONRPCMessage>((resolve) => {
        answers.set(JSON.stringify(id), resolve);
        void clientSide.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
      });
    const charge = async (id: number | string) => keyOf(((await request(id, 'tools/call', { name: 'charge', arguments: {} })) as { result: unknown }).result);
    try {
      await request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'retry', version: '1' } });
      await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
      const first = await charge(1);
      expect(await charge(1)).toBe(first);
      expect(await charge(2)).not.toBe(first);
      // Two JSON-RPC ids, so two requests: a client that numbers some requests and names others.
      const named = await charge('1');
      expect(named).not.toBe(first);
      expect(await charge('1')).toBe(named);
      // A string id is whatever the client chose: the key stays short and plain.
      const odd = await charge(`a\r\nX-Injected: 1${'z'.repeat(5000)}`);
      expect(odd).toMatch(/^mcp_[\w-]+_s[\w-]{22}$/);
    } finally {
      await clientSide.close();
      await sdkServer.close();
    }
  });
});
