import * as http from 'node:http';
import * as net from 'node:net';
import { createMcpServer } from '@toolwright/mcp';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { ProbeLog, probeContainer, type Session } from './fixtures/probe-tools';
import { httpClient, listen, verifier } from './support/clients';

const auth = (info: { clientId: string } | undefined): Session | undefined => (info ? { customerId: info.clientId } : undefined);
const ACCEPT = 'application/json, text/event-stream';

/** One raw HTTP exchange on loopback, with headers `fetch` will not send (Host, a lying content-length). */
function raw(url: URL, options: http.RequestOptions, body?: string | Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, ...options }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A JSON-RPC request on a session, as a client would post it. */
function rpc(url: URL, token: string, sessionId: string, message: object, method = 'POST') {
  return fetch(url, {
    method,
    headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${token}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    ...(method === 'POST' && { body: JSON.stringify({ jsonrpc: '2.0', ...message }) }),
  });
}

/** Opens a 2025-11-25 session with a raw initialize and returns its id. */
async function openSession(url: URL, token: string): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });
  expect(init.status).toBe(200);
  await init.text();
  const id = init.headers.get('mcp-session-id')!;
  await (await rpc(url, token, id, { method: 'notifications/initialized' })).text();
  return id;
}

/** The JSON-RPC message of a response, whether sent as JSON or as one SSE event. */
async function messageOf(response: Response): Promise<any> {
  const text = await response.text();
  const data = text.includes('data: ') ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).find((l) => l.includes('"id"')) : text;
  return JSON.parse(data!);
}

describe('Streamable HTTP under attack', () => {
  const log = new ProbeLog();
  const server = createMcpServer(probeContainer(log), { name: 'probe', version: '1.0.0', auth });
  let http1: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    http1 = await listen(server);
  });
  afterAll(async () => {
    await http1.close();
    expect(http1.rejected).toEqual([]);
  });

  it('survives a client that declares a body and hangs up early, and keeps serving', async () => {
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(http1.url.port), '127.0.0.1', () => {
        socket.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${http1.url.port}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"jsonrpc":`);
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const client = await httpClient(http1.url, 't-ana');
    await expect(client.listTools()).resolves.toMatchObject({ tools: expect.any(Array) });
    await client.close();
    expect(http1.rejected).toEqual([]);
  });

  it('refuses a foreign Host or Origin with 403 (DNS rebinding), before anything else', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const headers = { 'content-type': 'application/json', accept: ACCEPT };
    const foreignHost = await raw(http1.url, { method: 'POST', headers: { ...headers, host: 'evil.example:80' } }, body);
    expect(foreignHost.status).toBe(403);
    const foreignOrigin = await raw(http1.url, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' } }, body);
    expect(foreignOrigin.status).toBe(403);
    const loopbackOrigin = await raw(http1.url, { method: 'POST', headers: { ...headers, origin: `http://localhost:${http1.url.port}` } }, body);
    expect(loopbackOrigin.status).toBe(200);
  });

  it('answers 413 at once to a declared content-length over the limit, without reading it', async () => {
    const response = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: http1.url.port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024) } }, (res) => {
        resolve(res.statusCode!);
        res.resume();
        req.destroy();
      });
      req.on('error', () => undefined);
      req.flushHeaders();
      setTimeout(() => reject(new Error('no answer within 2 s')), 2000).unref();
    });
    expect(response).toBe(413);
  });

  it('bears only "invalid_token" in a 401: the verifier\'s words (a newline, a secret) go to the log', async () => {
    const leaky = {
      async verifyAccessToken(): Promise<never> {
        throw new InvalidTokenError('db postgres://admin:hunter2@db\r\nSet-Cookie: session=stolen');
      },
    };
    const exposed = await listen(server, { verifier: leaky });
    try {
      const response = await fetch(exposed.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: 'Bearer whatever' }, body: '{}' });
      expect(response.status).toBe(401);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="invalid_token"');
      const text = await response.text();
      expect(text).not.toMatch(/hunter2|Set-Cookie/);
      expect(JSON.parse(text)).toEqual({ error: 'invalid_token', error_description: 'invalid_token' });
      expect(exposed.logger.lines.join('\n')).toMatch(/hunter2/);
      expect(exposed.rejected).toEqual([]);
    } finally {
      await exposed.close();
    }
  });

  it('serves a session only to the principal that opened it: another token gets 404 on calls and DELETE', async () => {
    const id = await openSession(http1.url, 't-ana');
    const asBruno = await rpc(http1.url, 't-bruno', id, { id: 1, method: 'tools/list' });
    expect(asBruno.status).toBe(404);
    const anonymous = await fetch(http1.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(anonymous.status).toBe(404);
    expect((await rpc(http1.url, 't-bruno', id, {}, 'DELETE')).status).toBe(404);
    const asAna = await rpc(http1.url, 't-ana', id, { id: 2, method: 'tools/list' });
    expect(asAna.status).toBe(200);
    expect((await messageOf(asAna)).result.tools.length).toBeGreaterThan(0);
    expect((await rpc(http1.url, 't-ana', id, {}, 'DELETE')).status).toBe(200);
  });

  it("never delivers A's result to B when B reuses the JSON-RPC id of A's call in flight", async () => {
    const id = await openSession(http1.url, 't-ana');
    const call = { id: 7, method: 'tools/call', params: { name: 'probe_write', arguments: { label: 'ana-7', ms: 300 } } };
    const ana = rpc(http1.url, 't-ana', id, call);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const bruno = await rpc(http1.url, 't-bruno', id, { ...call, params: { name: 'probe_read', arguments: { label: 'bruno-7', ms: 0 } } });
    expect(bruno.status).toBe(404);
    expect(await bruno.text()).not.toMatch(/ana-7/);
    const answered = await messageOf(await ana);
    expect(answered).toMatchObject({ id: 7, result: { structuredContent: { label: 'ana-7' } } });
  });
});

describe('Streamable HTTP body limit on chunked bodies', () => {
  it('cuts a chunked body off at maxBodyBytes with 413', async () => {
    const server = createMcpServer(probeContainer(), { name: 'probe', version: '1.0.0', auth });
    const exposed = await listen(server, { verifier, maxBodyBytes: 64 * 1024 });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: exposed.url.port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          resolve(res.statusCode!);
          res.resume();
        });
        req.on('error', () => undefined);
        const chunk = Buffer.alloc(16 * 1024, 0x20);
        let sent = 0;
        // At most 1 MiB: far past the limit, bounded in case the server kept reading.
        const pump = () => {
          while (sent < 64 && !req.destroyed) {
            sent++;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
        setTimeout(() => reject(new Error('no answer within 5 s')), 5000).unref();
      });
      expect(status).toBe(413);
      expect(exposed.rejected).toEqual([]);
    } finally {
      await exposed.close();
    }
  });
});

describe('Streamable HTTP idle sessions and calls in flight', () => {
  it('keeps a session open while a call runs past idleTimeoutMs, answers it in full, then closes the idle session', async () => {
    const server = createMcpServer(probeContainer(), { name: 'probe', version: '1.0.0', auth });
    const exposed = await listen(server, { verifier, idleTimeoutMs: 300 });
    try {
      const id = await openSession(exposed.url, 't-ana');
      const started = await rpc(exposed.url, 't-ana', id, { id: 1, method: 'tools/call', params: { name: 'probe_write', arguments: { label: 'slow', ms: 900 } } });
      expect(await messageOf(started)).toMatchObject({ id: 1, result: { structuredContent: { label: 'slow' } } });
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect((await rpc(exposed.url, 't-ana', id, { id: 2, method: 'tools/list' })).status).toBe(404);
    } finally {
      await exposed.close();
    }
  });
});

describe('OAuth protected-resource metadata', () => {
  it('serves the metadata document and names it in the 401 challenge', async () => {
    const server = createMcpServer(probeContainer(), { name: 'probe', version: '1.0.0', auth });
    const placeholder = new URL('http://127.0.0.1/mcp');
    const resourceMetadata = {
      oauthMetadata: { issuer: 'https://auth.example.com', authorization_endpoint: 'https://auth.example.com/authorize', token_endpoint: 'https://auth.example.com/token', response_types_supported: ['code'] },
      resourceServerUrl: placeholder,
    };
    const exposed = await listen(server, { verifier, requireAuth: true, resourceMetadata });
    try {
      const refused = await fetch(exposed.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: '{}' });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"');
      const document = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', exposed.url));
      expect(document.status).toBe(200);
      expect(await document.json()).toMatchObject({ resource: 'http://127.0.0.1/mcp', authorization_servers: ['https://auth.example.com'] });
    } finally {
      await exposed.close();
    }
  });
});
