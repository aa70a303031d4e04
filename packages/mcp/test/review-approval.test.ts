import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolContainer } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, ProbeTools, probeManifest, silentLogger, type Session } from './fixtures/probe-tools';
import { listen, until } from './support/clients';

// Review (attacker's view) of approval over MCP on 2025-11-25.

const auth = (info: { clientId: string } | undefined): Session | undefined => (info ? { customerId: info.clientId } : undefined);
describe('review: approval over MCP on 2025-11-25', () => {
  const log = new ProbeLog();
  // Every write waits for a person.
  const tools = new ToolContainer<Session | undefined>({ manifest: probeManifest, providers: [new ProbeTools(log)], logger: silentLogger, approval: 'writes' });
  const server = createMcpServer(tools, { name: 'probe', version: '1.0.0', auth });

  it('keeps arrival order across the approval form: a read sent after a write that waits for approval does not run before that write', async () => {
    const http = await listen(server);
    const client = new Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    let formShown = false;
    let approve!: () => void;
    const decided = new Promise<void>((resolve) => (approve = resolve));
    client.setRequestHandler(ElicitRequestSchema, async () => {
      formShown = true;
      // The user takes a moment to decide.
      await decided;
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: 'Bearer t-ana' } } }));
    try {
      const write = client.callTool({ name: 'probe_write', arguments: { label: 'order-w', ms: 0 } });
      await until(() => formShown);
      // Arrives after the write: by the session's order it waits until the write is done.
      const read = client.callTool({ name: 'probe_read', arguments: { label: 'order-r', ms: 0 } });
      await new Promise((resolve) => setTimeout(resolve, 150));
      approve();
      await Promise.all([write, read]);
      const w = log.spans.get('order-w')!;
      const r = log.spans.get('order-r')!;
      expect(r.start).toBeGreaterThan(w.end!);
    } finally {
      await client.close();
      await http.close();
    }
  });
});
