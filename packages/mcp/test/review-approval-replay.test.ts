import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ToolContainer } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, ProbeTools, probeManifest, silentLogger, type Session } from './fixtures/probe-tools';
import { listen } from './support/clients';

// Review: on 2026-07-28 an approved call is a retry carrying `requestState` (HMAC over the call's
// fingerprint, bound to the principal, 10 minutes) and the form's answer. Nothing makes that pair
// single-use: the same retry request sent again (a client or proxy retrying a POST that timed out,
// or anyone replaying it with the same token) runs the write again, with no second form, and
// with a fresh ctx.toolUseId each time (mcp_<uuid>), so no downstream idempotency key catches it.

const auth = (info: { clientId: string } | undefined): Session | undefined => (info ? { customerId: info.clientId } : undefined);

describe('review: approval over MCP on 2026-07-28', () => {
  it('runs an approved write once: the approved retry sent a second time does not run it again', async () => {
    const log = new ProbeLog();
    const tools = new ToolContainer<Session | undefined>({ manifest: probeManifest, providers: [new ProbeTools(log)], logger: silentLogger, approval: 'writes' });
    const http = await listen(createMcpServer(tools, { name: 'probe', version: '1.0.0', auth }));
    // What the client posted: the approved retry is the tools/call whose params carry requestState.
    const posted: Array<{ headers: Headers; body: string }> = [];
    const recording = async (input: string | URL | Request, init?: RequestInit) => {
      if (init?.method === 'POST' && typeof init.body === 'string') posted.push({ headers: new Headers(init.headers), body: init.body });
      return fetch(input, init);
    };
    const client = new Client({ name: 'v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
    let forms = 0;
    client.setRequestHandler('elicitation/create', () => {
      forms++;
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: 'Bearer t-ana' } }, fetch: recording }));
    try {
      let started = 0;
      const start = log.start.bind(log);
      log.start = (label, effect) => {
        if (label === 'pay-once') started++;
        start(label, effect);
      };
      await expect(client.callTool({ name: 'probe_write', arguments: { label: 'pay-once', ms: 0 } })).resolves.toMatchObject({ structuredContent: { label: 'pay-once' } });
      expect([forms, started]).toEqual([1, 1]);

      const retry = posted.find((p) => p.body.includes('"requestState"') && p.body.includes('pay-once'))!;
      expect(retry).toBeDefined();
      const replayed = await fetch(http.url, { method: 'POST', headers: retry.headers, body: retry.body });
      await replayed.text();
      // One "yes" in the form, one run of the write.
      expect(started).toBe(1);
    } finally {
      await client.close();
      await http.close();
    }
  });
});
