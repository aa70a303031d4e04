import { createMcpServer, mcpHttpHandler, type McpToolServer } from '@toolwright/mcp';
import { ProbeLog, probeContainer } from './fixtures/probe-tools';
import { listen, verifier } from './support/clients';

// Every 2025-11-25 session costs memory (an SDK server, its transport, an event store of up to
// 1 MiB) until it idles out (30 minutes by default): without a bound, one client looping on
// initialize (about 57 KB and 4 ms each) exhausts the process. maxSessions bounds the sessions of
// each principal (its least recently used idle one makes room; 429 if all are busy) and of the
// whole endpoint (503), without one greedy principal taking another's room.

const ACCEPT = 'application/json, text/event-stream';
const OPENED = 1100;
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'loop', version: '1' } } });

function headersOf(token?: string, session?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: ACCEPT,
    'mcp-protocol-version': '2025-11-25',
    ...(token && { authorization: `Bearer ${token}` }),
    ...(session && { 'mcp-session-id': session }),
  };
}

const initialize = (url: URL, token?: string) => fetch(url, { method: 'POST', headers: headersOf(token), body: INITIALIZE });

/** Opens a session and returns its id. */
async function open(url: URL, token?: string): Promise<string> {
  const response = await initialize(url, token);
  await response.text();
  expect(response.status).toBe(200);
  const id = response.headers.get('mcp-session-id')!;
  await (await fetch(url, { method: 'POST', headers: headersOf(token, id), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return id;
}

/** The HTTP status of a `tools/call` of `probe_read` (taking `ms`) on session `id`. */
async function call(url: URL, id: string, token?: string, ms = 0): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe_read', arguments: { label: 'x', ms } } });
  const response = await fetch(url, { method: 'POST', headers: headersOf(token, id), body });
  await response.text();
  return response.status;
}

/** The SDK servers still open (McpToolServer keeps each until its session closes). */
const openServers = (server: McpToolServer) => (server as unknown as { sessions: Set<unknown> }).sessions.size;

const probeServer = () => createMcpServer(probeContainer(new ProbeLog()), { name: 'probe', version: '1.0.0' });

describe('maxSessions: the 2025-11-25 sessions open at once', () => {
  it(`keeps at most 100 sessions (the default per principal) open for one anonymous client that sends ${OPENED} initialize requests`, async () => {
    const server = probeServer();
    const http = await listen(server, {});
    try {
      let last = '';
      for (let i = 0; i < OPENED; i++) {
        const response = await initialize(http.url);
        await response.text();
        expect(response.status).toBe(200);
        last = response.headers.get('mcp-session-id')!;
      }
      expect(openServers(server)).toBeLessThanOrEqual(100);
      expect(await call(http.url, last)).toBe(200);
    } finally {
      await http.close();
    }
  }, 60_000);

  it("closes the principal's least recently used idle session to make room; its id then gets 404", async () => {
    const server = probeServer();
    const http = await listen(server, { verifier, maxSessions: { perPrincipal: 3 } });
    try {
      const [first, second, third] = [await open(http.url, 't-ana'), await open(http.url, 't-ana'), await open(http.url, 't-ana')];
      expect(await call(http.url, first, 't-ana')).toBe(200);
      const fourth = await open(http.url, 't-ana');
      expect(await call(http.url, second, 't-ana')).toBe(404);
      for (const id of [first, third, fourth]) expect(await call(http.url, id, 't-ana')).toBe(200);
      expect(openServers(server)).toBe(3);
    } finally {
      await http.close();
    }
  });

  it('answers 429, saying which limit and what to do, when all of the principal\'s sessions are busy', async () => {
    const http = await listen(probeServer(), { verifier, maxSessions: { perPrincipal: 1 } });
    try {
      const busy = await open(http.url, 't-ana');
      const running = call(http.url, busy, 't-ana', 300);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const refused = await initialize(http.url, 't-ana');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      const body = (await refused.json()) as { id: unknown; error: { message: string } };
      expect(body.id).toBe(0);
      expect(body.error.message).toMatch(/maxSessions\.perPrincipal = 1.*Reuse an open session/);
      expect(await running).toBe(200);
      // Once the call is answered the session is idle, and makes room.
      await open(http.url, 't-ana');
      expect(await call(http.url, busy, 't-ana')).toBe(404);
    } finally {
      await http.close();
    }
  });

  it("answers 503 at the overall limit, and never closes another principal's session for room", async () => {
    const server = probeServer();
    const http = await listen(server, { verifier, maxSessions: { perPrincipal: 2, total: 3 } });
    try {
      const anas = [await open(http.url, 't-ana'), await open(http.url, 't-ana')];
      await open(http.url, 't-bruno');
      const refused = await initialize(http.url, 't-bruno');
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/maxSessions\.total = 3.*Try again later/);
      for (const id of anas) expect(await call(http.url, id, 't-ana')).toBe(200);
      expect(openServers(server)).toBe(3);
    } finally {
      await http.close();
    }
  });

  it('leaves room for other principals however many sessions one principal asks for', async () => {
    const server = probeServer();
    const http = await listen(server, { verifier, maxSessions: { perPrincipal: 2, total: 4 } });
    try {
      for (let i = 0; i < 10; i++) await open(http.url, 't-ana');
      const brunos = await open(http.url, 't-bruno');
      expect(await call(http.url, brunos, 't-bruno')).toBe(200);
      expect(openServers(server)).toBe(3);
    } finally {
      await http.close();
    }
  });

  it('refuses a limit that is not a positive integer with a RangeError', () => {
    const server = probeServer();
    expect(() => mcpHttpHandler(server, { maxSessions: { perPrincipal: 0 } })).toThrow(new RangeError('mcpHttpHandler: maxSessions.perPrincipal must be a positive integer, got 0.'));
    expect(() => mcpHttpHandler(server, { maxSessions: { total: 1.5 } })).toThrow(/maxSessions\.total must be a positive integer, got 1\.5/);
    expect(() => mcpHttpHandler(server, { maxSessions: { total: -1 } })).toThrow(RangeError);
    expect(() => mcpHttpHandler(server, { maxSessions: 5 as never })).toThrow(/maxSessions must be an object/);
  });
});
