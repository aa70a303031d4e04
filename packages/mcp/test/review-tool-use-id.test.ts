import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ctx, Tool, ToolContainer, defineToolManifest, type ToolContext } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { silentLogger } from './fixtures/probe-tools';
import { httpClient, listen, verifier } from './support/clients';

// Review: ctx.toolUseId is "the idempotency key to pass to downstream systems" (DESIGN.md,
// Approval, pause and resume). create-mcp-server.ts gives each 2026-07-28 call a fresh one because
// "ids repeat across clients"; but a 2025-11-25 call without an Mcp-Session-Id (sessions:
// 'stateless' over HTTP, and every stdio process) gets `mcp_<JSON-RPC id>`, and JSON-RPC ids
// repeat across clients just the same (every SDK client counts from 0). Two users' writes then
// reach a payment API with one idempotency key: the second is dropped as a duplicate, or gets the
// first one's stored response (another customer's data).

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

describe('review: ctx.toolUseId as an idempotency key', () => {
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
});
