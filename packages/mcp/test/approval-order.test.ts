import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolContainer } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, ProbeTools, probeManifest, silentLogger, type Session } from './fixtures/probe-tools';
import { listen, until } from './support/clients';

// A write waiting for its approval form keeps its place in the session's arrival order (2025-11-25):
// the form is asked within the call, so calls that arrive while the user decides wait behind it.

const auth = (info: { clientId: string } | undefined): Session | undefined => (info ? { customerId: info.clientId } : undefined);

describe('approval over MCP on 2025-11-25: the session order', () => {
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

  it('lets go of its place when the call is cancelled while its form waits: the write does not run, and the read behind it does', async () => {
    const http = await listen(server);
    const client = new Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    let formShown = false;
    // The user never answers.
    client.setRequestHandler(ElicitRequestSchema, () => {
      formShown = true;
      return new Promise<never>(() => undefined);
    });
    await client.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: 'Bearer t-ana' } } }));
    try {
      const cancel = new AbortController();
      const write = client.callTool({ name: 'probe_write', arguments: { label: 'cancelled-w', ms: 0 } }, undefined, { signal: cancel.signal });
      await until(() => formShown);
      const read = client.callTool({ name: 'probe_read', arguments: { label: 'after-cancel-r', ms: 0 } }, undefined, { timeout: 5_000 });
      cancel.abort();
      await expect(write).rejects.toThrow();
      await expect(read).resolves.toMatchObject({ structuredContent: { label: 'after-cancel-r' } });
      expect(log.spans.has('cancelled-w')).toBe(false);
    } finally {
      await client.close();
      await http.close();
    }
  });
});
