import { createMcpServer, type AuthInfo, type McpHttpOptions } from '@toolwright/mcp';
import { ProbeLog, probeContainer } from './fixtures/probe-tools';
import { listen } from './support/clients';
import { probeAuth as auth } from './support/probe-suite';

const ACCEPT = 'application/json, text/event-stream';
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const SHUTTING_DOWN = { jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/shutting down.*again later, or to another instance/) }, id: null };

/** The handler on a loopback port, so the test can close the handler and still send it requests. */
async function serving(options: McpHttpOptions = {}) {
  const served = await listen(createMcpServer(probeContainer(new ProbeLog()), { name: 'probe', version: '1.0.0', auth }), options);
  const post = (body: string, headers: Record<string, string> = {}) => fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body });
  return { handler: served.handler, logger: served.logger, post, stop: () => served.close() };
}

async function answer(response: Response) {
  return { status: response.status, session: response.headers.get('mcp-session-id'), body: await response.json() };
}

describe('mcpHttpHandler after close()', () => {
  it('answers every request 503 with a JSON-RPC error, opens no session, and logs nothing', async () => {
    const h = await serving();
    try {
      const opened = await h.post(INIT);
      const id = opened.headers.get('mcp-session-id')!;
      await opened.text();
      await h.handler.close();

      expect(await answer(await h.post(INIT))).toEqual({ status: 503, session: null, body: SHUTTING_DOWN });
      // The session it had is gone with it, and says so the same way.
      const onSession = await h.post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
      expect(await answer(onSession)).toEqual({ status: 503, session: null, body: SHUTTING_DOWN });
      // 2026-07-28 reached the closed SDK entry, which threw: a 500 and an error in the log.
      const modern = await h.post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }), { 'mcp-protocol-version': '2026-07-28' });
      expect(await answer(modern)).toEqual({ status: 503, session: null, body: SHUTTING_DOWN });
      expect(h.logger.lines).toEqual([]);
    } finally {
      await h.stop();
    }
  });

  it('opens no session for an initialize that was under way when close() came', async () => {
    let verified!: () => void;
    const held = new Promise<void>((resolve) => (verified = resolve));
    let reached!: () => void;
    const verifying = new Promise<void>((resolve) => (reached = resolve));
    const verifier = {
      async verifyAccessToken(token: string): Promise<AuthInfo> {
        reached();
        await held;
        return { token, clientId: 'C-ana', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
      },
    };
    const h = await serving({ verifier });
    try {
      const initialize = h.post(INIT, { authorization: 'Bearer t-ana' });
      await verifying;
      await h.handler.close();
      verified();
      expect(await answer(await initialize)).toEqual({ status: 503, session: null, body: SHUTTING_DOWN });
      expect(h.logger.lines).toEqual([]);
    } finally {
      await h.stop();
    }
  });
});
