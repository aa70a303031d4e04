import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolServer } from './create-mcp-server';

export interface McpHttpOptions {
  /**
   * `'stateful'` (default): `initialize` opens a session (`Mcp-Session-Id`) that keeps its call
   * order across requests. `'stateless'`: every request is a session of its own, for servers
   * behind a load balancer without affinity.
   */
  sessions?: 'stateful' | 'stateless';
  /**
   * Checks `Authorization: Bearer <token>`; what it returns is the call's `authInfo`. A token it
   * rejects is answered 401. A request without a token goes on without `authInfo` (guards
   * decide), unless `requireAuth` is set. A `req.auth` set by earlier middleware is kept.
   */
  verifier?: OAuthTokenVerifier;
  requireAuth?: boolean;
  /** A stateful session without a request for this long is closed; its id then gets 404. Default 30 minutes. */
  idleTimeoutMs?: number;
}

/** A Node `(req, res)` handler, also an Express or Nest handler; `req.body` is used when already parsed. */
export interface McpHttpHandler {
  (req: IncomingMessage & { auth?: AuthInfo; body?: unknown }, res: ServerResponse): Promise<void>;
  /** Closes every open session. */
  close(): Promise<void>;
}

/** Streamable HTTP for `server`: mount it on every method of one path (`app.all('/mcp', ...)`). */
export function mcpHttpHandler(server: McpToolServer<any>, options: McpHttpOptions = {}): McpHttpHandler {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const idleTimers = new Map<string, NodeJS.Timeout>();
  const stateless = options.sessions === 'stateless';
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  // A client that goes away without DELETE would otherwise keep its session in memory forever.
  const touch = (id: string, transport: StreamableHTTPServerTransport) => {
    clearTimeout(idleTimers.get(id));
    idleTimers.set(id, setTimeout(() => void transport.close(), idleTimeoutMs).unref());
  };
  const forget = (id: string) => {
    sessions.delete(id);
    clearTimeout(idleTimers.get(id));
    idleTimers.delete(id);
  };

  const handler = async (req: IncomingMessage & { auth?: AuthInfo; body?: unknown }, res: ServerResponse) => {
    if (!(await authenticate(req, res, options))) return;
    if (stateless) {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const session = await server.connect(transport);
      res.on('close', () => void session.close());
      await transport.handleRequest(req, res, req.body);
      return;
    }
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const transport = sessions.get(id);
      if (!transport) return rpcError(res, 404, -32001, `Session ${id} not found; send initialize again without Mcp-Session-Id.`);
      touch(id, transport);
      return transport.handleRequest(req, res, req.body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(req.body ?? (await readJson(req)))) {
      return rpcError(res, 400, -32000, 'No Mcp-Session-Id: start with an initialize request, then send its Mcp-Session-Id on every request.');
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
        touch(sessionId, transport);
      },
      onsessionclosed: forget,
    });
    transport.onclose = () => {
      if (transport.sessionId) forget(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };

  return Object.assign(handler, {
    close: async () => {
      const open = [...sessions.entries()];
      for (const [id] of open) forget(id);
      await Promise.all(open.map(([, t]) => t.close()));
    },
  });
}

/** The body read once and kept on `req.body`, for the transport to reuse. */
async function readJson(req: IncomingMessage & { body?: unknown }): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    req.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    req.body = undefined;
  }
  return req.body;
}

async function authenticate(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, options: McpHttpOptions): Promise<boolean> {
  if (req.auth || !options.verifier) return true;
  const header = req.headers.authorization;
  const token = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
  if (!token) {
    if (!options.requireAuth) return true;
    unauthorized(res, 'invalid_request', 'send Authorization: Bearer <token>');
    return false;
  }
  try {
    const info = await options.verifier.verifyAccessToken(token);
    if (info.expiresAt !== undefined && info.expiresAt < Date.now() / 1000) {
      unauthorized(res, 'invalid_token', 'the token has expired');
      return false;
    }
    req.auth = info;
    return true;
  } catch (error) {
    unauthorized(res, 'invalid_token', error instanceof Error ? error.message : 'the token was rejected');
    return false;
  }
}

function unauthorized(res: ServerResponse, code: string, description: string): void {
  res.setHeader('WWW-Authenticate', `Bearer error="${code}", error_description="${description.replace(/["\\]/g, '')}"`);
  rpcError(res, 401, -32001, `Unauthorized: ${description}.`);
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
