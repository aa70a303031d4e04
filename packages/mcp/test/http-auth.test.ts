import * as http from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { AddressInfo } from 'node:net';
import { createMcpServer, mcpHttpHandler, type AuthInfo, type McpHttpOptions } from '@toolwright/mcp';
import { ProbeLog, probeContainer } from './fixtures/probe-tools';
import { RecordingLogger } from './support/clients';
import { probeAuth as auth } from './support/probe-suite';

const ACCEPT = 'application/json, text/event-stream';
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const hour = () => Math.floor(Date.now() / 1000) + 3600;

/**
 * The handler behind an app's own middleware, as an Express app or the Nest mount has it: the
 * middleware sets `req.auth` for the requests it authenticated (here, those with an `x-session`
 * cookie stand-in) and lets the others through.
 */
async function behindMiddleware(options: McpHttpOptions) {
  const logger = new RecordingLogger();
  const handler = mcpHttpHandler(createMcpServer(probeContainer(new ProbeLog()), { name: 'probe', version: '1.0.0', auth }), { logger, ...options });
  const server = http.createServer((req: http.IncomingMessage & { auth?: AuthInfo }, res) => {
    const session = req.headers['x-session'];
    if (session === 'ana') req.auth = { token: 'session-ana', clientId: 'C-ana', scopes: [], expiresAt: hour() };
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  return {
    url,
    logger,
    initialize: (headers: Record<string, string> = {}) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, body: INIT }),
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('requireAuth without a verifier (the app authenticates in middleware)', () => {
  it('refuses with 401 invalid_token what the middleware did not authenticate, and serves what it did', async () => {
    const h = await behindMiddleware({ requireAuth: true });
    try {
      const anonymous = await h.initialize();
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
      expect(anonymous.headers.get('mcp-session-id')).toBeNull();
      await anonymous.text();

      // No verifier: a bearer token is nobody's word for who is calling.
      const bearerOnly = await h.initialize({ authorization: 'Bearer anything' });
      expect(bearerOnly.status).toBe(401);
      await bearerOnly.text();

      const ana = await h.initialize({ 'x-session': 'ana' });
      expect(ana.status).toBe(200);
      expect(ana.headers.get('mcp-session-id')).toEqual(expect.any(String));
      await ana.text();
    } finally {
      await h.close();
    }
  });

  it('refuses a 2026-07-28 request without auth info the same way, and serves one with it', async () => {
    const h = await behindMiddleware({ requireAuth: true });
    const modern = async (headers: Record<string, string>) => {
      const client = new Client({ name: 'v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(h.url, { requestInit: { headers } }));
      try {
        return (await client.listTools()).tools.length;
      } finally {
        await client.close();
      }
    };
    try {
      await expect(modern({})).rejects.toThrow(/401|invalid_token|nauthorized/);
      await expect(modern({ 'x-session': 'ana' })).resolves.toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  });
});

describe('the audience of a bearer token (RFC 8707), with resourceMetadata', () => {
  const THIS_SERVER = new URL('https://mcp.example.com/mcp');
  const resourceMetadata = {
    oauthMetadata: { issuer: 'https://auth.example.com', authorization_endpoint: 'https://auth.example.com/authorize', token_endpoint: 'https://auth.example.com/token', response_types_supported: ['code'] },
    resourceServerUrl: THIS_SERVER,
  };
  /** Valid tokens of one authorization server, each minted for the resource its name says. */
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const resource = { 'for-this': new URL('https://mcp.example.com/mcp/'), 'for-other': new URL('https://other.example.com/mcp'), 'for-none': undefined }[token];
      return { token, clientId: 'C-ana', scopes: [], expiresAt: hour(), ...(resource && { resource }) };
    },
  };
  const initializeWith = (h: { initialize: (headers: Record<string, string>) => Promise<Response> }, token: string) => h.initialize({ authorization: `Bearer ${token}` });

  it('serves a token issued for this server, and refuses one issued for another with 401 invalid_token', async () => {
    const h = await behindMiddleware({ verifier, resourceMetadata });
    try {
      const mine = await initializeWith(h, 'for-this');
      expect(mine.status).toBe(200);
      await mine.text();
      const other = await initializeWith(h, 'for-other');
      expect(other.status).toBe(401);
      expect(other.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(await other.json()).toEqual({ error: 'invalid_token', error_description: 'invalid_token' });
      expect(h.logger.lines).toEqual([expect.stringContaining('Token was not issued for this resource')]);
    } finally {
      await h.close();
    }
  });

  it('refuses a token the verifier reports no resource for, and tells the operator to fill AuthInfo.resource', async () => {
    const h = await behindMiddleware({ verifier, resourceMetadata });
    try {
      const response = await initializeWith(h, 'for-none');
      expect(response.status).toBe(401);
      await response.text();
      expect(h.logger.lines).toEqual([expect.stringMatching(/reported no resource.*https:\/\/mcp\.example\.com\/mcp.*AuthInfo\.resource/)]);
    } finally {
      await h.close();
    }
  });

  it('compares nothing without resourceMetadata: the handler does not know its own name, the verifier must check the audience', async () => {
    const h = await behindMiddleware({ verifier });
    try {
      const response = await initializeWith(h, 'for-other');
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      await h.close();
    }
  });
});
