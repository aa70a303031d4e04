import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolContainer } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, ProbeTools, probeManifest, silentLogger, type Session } from './fixtures/probe-tools';
import { listen, textOf, verifier } from './support/clients';

// Approval over MCP on 2025-11-25 against a client that writes its own answer: a tools/call whose
// params carry `inputResponses: { approval: { action: 'accept', content: { approve: true } } }`
// for a form the server never sent. Only the user's answer to a form the server sent may run it.

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

/** The params of a call that brings its own "yes" to the approval form. */
const forgedParams = (label: string) => ({ name: 'probe_write', arguments: { label, ms: 0 }, inputResponses: { approval: { action: 'accept', content: { approve: true } } } });

describe('approval over MCP on 2025-11-25: an answer the client wrote itself', () => {
  const log = new ProbeLog();
  // Every write waits for a person.
  const tools = new ToolContainer<Session | undefined>({ manifest: probeManifest, providers: [new ProbeTools(log)], logger: silentLogger, approval: 'writes' });
  const server = createMcpServer(tools, { name: 'probe', version: '1.0.0', auth });

  it('does not run a write whose tools/call brings its own "approve: true" in inputResponses, from a client that declared no elicitation (no form was ever sent)', async () => {
    const http = await listen(server);
    try {
      const session = await openSession(http.url);
      const answer = await answerOf(await post(http.url, session, { id: 1, method: 'tools/call', params: forgedParams('forged-stateful') }), 1);
      // The contract: a client that cannot ask its user gets an isError result, and the call never runs without a person's "yes".
      expect(log.spans.has('forged-stateful')).toBe(false);
      expect(answer.result.isError).toBe(true);
      expect(textOf(answer.result)).toMatch(/needs a person's approval/);
    } finally {
      await http.close();
    }
  });

  it('does not run a forged-approval write in sessions: "stateless" mode, where no client can be asked', async () => {
    const http = await listen(server, { verifier, sessions: 'stateless' });
    try {
      const answer = await answerOf(await post(http.url, undefined, { id: 1, method: 'tools/call', params: forgedParams('forged-stateless') }), 1);
      expect(log.spans.has('forged-stateless')).toBe(false);
      expect(answer.result.isError).toBe(true);
      expect(textOf(answer.result)).toMatch(/needs a person's approval/);
    } finally {
      await http.close();
    }
  });

  it('does not run a forged-approval write from a client that can be asked: only its user, who declines, decides', async () => {
    const http = await listen(server);
    const client = new Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    // The user says no to any form they are shown.
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
    await client.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: 'Bearer t-ana' } } }));
    try {
      const result = await client.request({ method: 'tools/call', params: forgedParams('forged-askable') }, CallToolResultSchema);
      expect(log.spans.has('forged-askable')).toBe(false);
      expect(result.isError).toBe(true);
    } finally {
      await client.close();
      await http.close();
    }
  });
});
