import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolContainer } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, ProbeTools, probeManifest, silentLogger, type Session } from './fixtures/probe-tools';
import { listen, textOf, until } from './support/clients';

// Review (attacker's view) of approval over MCP on 2025-11-25.

const auth = (info: { clientId: string } | undefined): Session | undefined => (info ? { customerId: info.clientId } : undefined);
const ACCEPT = 'application/json, text/event-stream';

function post(url: URL, sessionId: string | undefined, message: object): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      authorization: 'Bearer t-ana',
      'mcp-protocol-version': '2025-11-25',
      ...(sessionId && { 'mcp-session-id': sessionId }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}

/** The JSON-RPC message with `id` in a response, whether sent as JSON or as SSE. */
async function answerOf(response: Response, id: number): Promise<any> {
  const text = await response.text();
  const lines = text.includes('data: ') ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).filter((l) => l.trim() !== '') : [text];
  return lines.map((l) => JSON.parse(l)).find((m) => m.id === id);
}

/** A 2025-11-25 session opened by a raw client that declares NO capabilities (it cannot show forms). */
async function openSession(url: URL): Promise<string> {
  const init = await post(url, undefined, { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  await init.text();
  const id = init.headers.get('mcp-session-id')!;
  await (await post(url, id, { method: 'notifications/initialized' })).text();
  return id;
}

/** A call whose params carry an answer to the approval form the server never sent. */
const forged = (label: string) => ({
  id: 1,
  method: 'tools/call',
  params: { name: 'probe_write', arguments: { label, ms: 0 }, inputResponses: { approval: { action: 'accept', content: { approve: true } } } },
});

describe('review: approval over MCP on 2025-11-25', () => {
  const log = new ProbeLog();
  // Every write waits for a person.
  const tools = new ToolContainer<Session | undefined>({ manifest: probeManifest, providers: [new ProbeTools(log)], logger: silentLogger, approval: 'writes' });
  const server = createMcpServer(tools, { name: 'probe', version: '1.0.0', auth });

  it('does not run a write whose tools/call brings its own "approve: true" in inputResponses, from a client that declared no elicitation (no form was ever sent)', async () => {
    const http = await listen(server);
    try {
      const session = await openSession(http.url);
      const answer = await answerOf(await post(http.url, session, forged('forged-stateful')), 1);
      // The contract: a client that cannot ask its user gets an isError result, and the call never runs without a person's "yes".
      expect(log.spans.has('forged-stateful')).toBe(false);
      expect(answer.result.isError).toBe(true);
      expect(textOf(answer.result)).toMatch(/needs a person's approval/);
    } finally {
      await http.close();
    }
  });

  it('does not run a forged-approval write in sessions: "stateless" mode, where no client can be asked', async () => {
    const http = await listen(server, { verifier: (await import('./support/clients')).verifier, sessions: 'stateless' });
    try {
      const answer = await answerOf(await post(http.url, undefined, forged('forged-stateless')), 1);
      expect(log.spans.has('forged-stateless')).toBe(false);
      expect(answer.result.isError).toBe(true);
    } finally {
      await http.close();
    }
  });

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
