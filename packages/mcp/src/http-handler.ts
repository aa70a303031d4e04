import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  isInitializeRequest,
  isLegacyRequest,
  legacyStatelessFallback,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  oauthMetadataResponse,
  validateHostHeader,
  validateOriginHeader,
  verifyBearerToken,
  type AuthInfo,
  type AuthMetadataOptions,
  type McpServerFactory,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { consoleLogger, type ToolLogger } from '@toolwright/core';
import type { McpToolServer } from './create-mcp-server';
import { principalOf } from './principal';
import { LegacySessions, SHUTTING_DOWN, type Resumability, type SessionLimits } from './http/legacy-sessions';
import { readBody } from './http/read-body';
import { rpcError, sendResponse, toWebRequest } from './http/web-exchange';

export interface McpHttpOptions {
  /**
   * For 2025-11-25 clients. `'stateful'` (default): `initialize` opens a session
   * (`Mcp-Session-Id`) that keeps its call order across requests. `'stateless'`: every request
   * is a session of its own, for servers behind a load balancer without affinity. 2026-07-28
   * has no sessions: its calls keep their order per principal.
   */
  sessions?: 'stateful' | 'stateless';
  /**
   * Checks `Authorization: Bearer <token>` with the official SDK's `verifyBearerToken` (a token
   * without an expiry is refused; with `resourceMetadata`, so is one whose `AuthInfo.resource` is
   * not that `resourceServerUrl`); what it returns is the call's `authInfo`. A refused token is
   * answered 401 `invalid_token`; the verifier's error goes to `logger` only. A request without
   * a token goes on without `authInfo` (guards decide), unless `requireAuth` is set. A `req.auth`
   * set by earlier middleware is kept.
   */
  verifier?: OAuthTokenVerifier;
  /**
   * Refuse (401 `invalid_token`) every request that arrives without auth info: neither a `req.auth`
   * set by earlier middleware nor a token `verifier` accepted. Without a `verifier`, only `req.auth`
   * counts, so a bearer token alone is refused too.
   */
  requireAuth?: boolean;
  /**
   * The OAuth protected-resource metadata (RFC 9728) of this server: served at
   * `/.well-known/oauth-protected-resource<path>` (and the authorization server's metadata at
   * `/.well-known/oauth-authorization-server`) when those paths reach this handler, and named in
   * every 401's `WWW-Authenticate: Bearer resource_metadata=...`. Its `resourceServerUrl` is also
   * the audience a token must have: one the verifier reports for another resource, or for none
   * (`AuthInfo.resource` unset), is refused with 401.
   */
  resourceMetadata?: AuthMetadataOptions;
  /**
   * Host names (no port) a request's `Host` may name; anything else is answered 403 (DNS
   * rebinding). Default: the loopback names (`localhost`, `127.0.0.1`, `[::1]`). Behind a proxy
   * or on a public name, list the names clients use.
   */
  allowedHosts?: string[];
  /** Host names a browser `Origin` may have; a request without `Origin` (not a browser) passes. Default: the loopback names. */
  allowedOrigins?: string[];
  /** The largest request body read, in bytes; a larger one is answered 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /** A 2025-11-25 session with no request open and no call running for this long is closed; its id then gets 404. Default 30 minutes. */
  idleTimeoutMs?: number;
  /**
   * How many 2025-11-25 sessions may be open at once, so that no client can exhaust the process's
   * memory by looping on `initialize`. `perPrincipal` (default 100; every anonymous client is one
   * principal): at the limit, that principal's least recently used idle session is closed for the
   * new one (its client gets 404 and initializes again); if all of them are busy, the `initialize`
   * is answered 429. `total` (default 2,000): at the limit, every `initialize` is answered 503
   * until sessions close or idle out. Both answers carry a JSON-RPC error saying which limit.
   */
  maxSessions?: { perPrincipal?: number; total?: number };
  /**
   * Who a request speaks for, to bind sessions to: by default the verified token's client id and
   * subject. A server whose middleware authenticates (and sets one shared `req.auth`) passes its own.
   * Every request without auth info is one principal: on 2026-07-28 anonymous callers share one
   * call order and one read cap, since nothing they send tells them apart.
   */
  principal?: (authInfo: AuthInfo | undefined, req: IncomingMessage) => string;
  /**
   * Resumable streams for 2025-11-25 sessions (SEP-1699). On by default: every SSE stream starts
   * with a priming event (an id, empty data, `retry: retryMs`), and each session keeps its newest
   * events (at most `maxEvents`, default 100, and `maxBytes` of JSON, default 1 MiB; one larger
   * event is kept alone) so a client whose stream dropped reconnects with `Last-Event-ID` and gets
   * what it missed. The events go with their session; on another principal's request the session
   * is 404 as always. With `closeCallStreamsAfterMs`, a call still running after that long has its
   * stream closed, freeing the connection: the client comes back after `retry` ms for the answer.
   * `false`: no store and no priming events.
   */
  resumability?: false | { maxEvents?: number; maxBytes?: number; retryMs?: number; closeCallStreamsAfterMs?: number };
  /** Where refused tokens and broken connections are reported; stderr by default. */
  logger?: ToolLogger;
}

/** A Node `(req, res)` handler, also an Express or Nest handler; `req.body` is used when already parsed. It never rejects. */
export interface McpHttpHandler {
  (req: IncomingMessage & { auth?: AuthInfo; body?: unknown }, res: ServerResponse): Promise<void>;
  /** Closes every open session; from then on every request is answered 503 and opens nothing. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

function sessionLimitsOf(option: McpHttpOptions['maxSessions']): SessionLimits {
  if (option !== undefined && (typeof option !== 'object' || option === null)) {
    throw new RangeError(`mcpHttpHandler: maxSessions must be an object { perPrincipal?, total }, got ${JSON.stringify(option)}.`);
  }
  const limits = { perPrincipal: option?.perPrincipal ?? 100, total: option?.total ?? 2000 };
  for (const key of ['perPrincipal', 'total'] as const) {
    const value = limits[key];
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`mcpHttpHandler: maxSessions.${key} must be a positive integer, got ${value}.`);
  }
  return limits;
}

function resumabilityOf(option: McpHttpOptions['resumability']): Resumability | undefined {
  if (option === false) return undefined;
  const resumability = { maxEvents: 100, maxBytes: 1024 * 1024, retryMs: 1000, ...option };
  for (const key of ['maxEvents', 'maxBytes', 'retryMs', 'closeCallStreamsAfterMs'] as const) {
    const value = resumability[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw new RangeError(`mcpHttpHandler: resumability.${key} must be a positive integer, got ${value}.`);
  }
  return resumability;
}

/**
 * `verifier`, refusing a token it reports no resource for. The SDK refuses those too once
 * `expectedResource` is set, but as "not issued for this resource", which sends the operator
 * looking at the token rather than at the verifier that left `AuthInfo.resource` empty.
 */
function reportingResource(verifier: OAuthTokenVerifier, expected: URL): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token) {
      const info = await verifier.verifyAccessToken(token);
      if (info.resource === undefined) {
        throw new Error(
          `the verifier reported no resource for this token, and resourceMetadata names this server (${expected.href}) as the audience tokens must have: set AuthInfo.resource from the token's audience (its aud claim, or the introspection answer's).`,
        );
      }
      return info;
    },
  };
}

/** The 401 for a request refused for its credentials: fixed text, and the challenge naming the metadata when there is one. */
function unauthorized(resourceMetadataUrl: string | undefined): Response {
  return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, 'invalid_token'), { resourceMetadataUrl });
}

/**
 * Streamable HTTP for `server`, both revisions on one endpoint: mount it on every method of one
 * path (`app.all('/mcp', ...)`). Each request passes, in order: Host and Origin checks (403),
 * the OAuth metadata routes, the bearer token (401), the body limit (413); then the SDK routes
 * it to 2026-07-28 (`createMcpHandler`) or 2025-11-25 (this handler's sessions).
 */
export function mcpHttpHandler(server: McpToolServer<any>, options: McpHttpOptions = {}): McpHttpHandler {
  const logger = options.logger ?? consoleLogger;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  if (!Number.isInteger(maxBody) || maxBody < 1) throw new RangeError(`mcpHttpHandler: maxBodyBytes must be a positive integer, got ${maxBody}.`);
  const allowedHosts = options.allowedHosts ?? localhostAllowedHostnames();
  const allowedOrigins = options.allowedOrigins ?? localhostAllowedOrigins();
  const resourceMetadataUrl = options.resourceMetadata && getOAuthProtectedResourceMetadataUrl(options.resourceMetadata.resourceServerUrl);
  // A server that names itself in its metadata is the audience its tokens must have (RFC 8707, the
  // MCP authorization spec): a token the same authorization server minted for another resource
  // server verifies just as well, and must not work here.
  const expectedResource = options.resourceMetadata?.resourceServerUrl;
  const verifier = options.verifier && expectedResource ? reportingResource(options.verifier, expectedResource) : options.verifier;
  const principalOfRequest = options.principal ?? ((authInfo: AuthInfo | undefined) => principalOf(authInfo));
  const onerror = (error: unknown) => logger.warn('toolwright mcp: the MCP SDK reported:', error instanceof Error ? error.message : error);
  // A 2026-07-28 request gets a server of its own (the SDK's factory is called with the request),
  // told whom the request speaks for: its call order and approval state are that principal's.
  const principalOfModern = new WeakMap<Request, string>();
  const modernServer: McpServerFactory = ({ requestInfo }) => server.createSession({ principal: requestInfo && principalOfModern.get(requestInfo) });
  const modern = createMcpHandler(modernServer, { legacy: 'reject', maxRequestBodySize: maxBody, onerror });
  const stateless = legacyStatelessFallback(server.factory, onerror, { maxRequestBodySize: maxBody });
  const sessions = new LegacySessions(server, options.idleTimeoutMs ?? 30 * 60_000, resumabilityOf(options.resumability), sessionLimitsOf(options.maxSessions));

  let closed = false;
  // After close() nothing may open again (a session nothing would close, an SDK entry that throws):
  // a process shutting down answers so that clients go elsewhere or come back later.
  const refuseClosed = (res: ServerResponse) => rpcError(res, 503, -32000, SHUTTING_DOWN);

  const serve = async (req: IncomingMessage & { auth?: AuthInfo; body?: unknown }, res: ServerResponse) => {
    if (closed) return refuseClosed(res);
    const host = validateHostHeader(req.headers.host, allowedHosts);
    if (!host.ok) return rpcError(res, 403, -32000, `Forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not allowed (allowedHosts).`);
    const origin = validateOriginHeader(req.headers.origin, allowedOrigins);
    if (!origin.ok) return rpcError(res, 403, -32000, 'Forbidden: this Origin is not allowed (allowedOrigins).');

    const controller = new AbortController();
    // Only a client gone before the answer ended is news to the SDK; aborting after every answer
    // would make an AbortError (a DOMException, dear to build) per request for nothing.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (options.resourceMetadata && url.pathname.startsWith('/.well-known/')) {
      const metadata = oauthMetadataResponse(toWebRequest(req, url, undefined, controller.signal), options.resourceMetadata);
      if (metadata) return sendResponse(res, metadata, onerror);
    }

    let authInfo = req.auth;
    const header = req.headers.authorization;
    if (!authInfo && verifier && header) {
      try {
        authInfo = await verifyBearerToken(header, { verifier, resourceMetadataUrl, expectedResource });
      } catch (error) {
        // The verifier's words (a connection string, a stack) are for the operator, never the client.
        logger.warn('toolwright mcp: a bearer token was refused:', error instanceof Error ? error.message : error);
        return sendResponse(res, unauthorized(resourceMetadataUrl), onerror);
      }
    }
    // Whoever authenticated the request (middleware's req.auth, or the verifier above), requireAuth
    // lets nothing through without it: an app that authenticates in middleware relies on it too.
    if (!authInfo && options.requireAuth) return sendResponse(res, unauthorized(resourceMetadataUrl), onerror);

    let body: string | undefined;
    let parsed = req.body;
    if (req.method === 'POST' && parsed === undefined) {
      const read = await readBody(req, maxBody);
      if (read.kind === 'gone') return void res.destroy();
      if (read.kind === 'too_large') {
        rpcError(res, 413, -32000, `Request body too large: at most ${maxBody} bytes.`, { connection: 'close' });
        return;
      }
      body = read.body.toString('utf8');
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
    }
    // Given the body parsed, the SDK reads no bytes of it: a request is classified, and a 2025 one
    // served, from `parsed`, so their web request carries none. (Without `parsed`, the SDK reads
    // `body` from a clone of its own.)
    let request = toWebRequest(req, url, parsed === undefined ? body : undefined, controller.signal);
    const principal = principalOfRequest(authInfo, req);

    const legacy = await isLegacyRequest(request, parsed, { maxRequestBodySize: maxBody });
    // close() may have come while the token was verified or the body read.
    if (closed) return refuseClosed(res);
    if (!legacy) {
      // A 2026-07-28 call hands its request on to the server as the call's `requestInfo`: whole.
      if (parsed !== undefined) request = toWebRequest(req, url, body ?? JSON.stringify(parsed), controller.signal);
      principalOfModern.set(request, principal);
      return sendResponse(res, await modern.fetch(request, { authInfo, parsedBody: parsed }), onerror);
    }
    if (options.sessions === 'stateless') return sendResponse(res, await stateless(request, { authInfo, parsedBody: parsed }), onerror);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.find(id, principal);
      if (!session) return rpcError(res, 404, -32001, 'Session not found; send initialize again without Mcp-Session-Id.');
      if (req.method === 'GET') return sendResponse(res, await session.stream(request, authInfo), onerror);
      return session.exchange(request, authInfo, parsed, (response) => sendResponse(res, response, onerror));
    }
    if (req.method !== 'POST' || !isInitializeRequest(parsed)) {
      return rpcError(res, 400, -32000, 'No Mcp-Session-Id: start with an initialize request, then send its Mcp-Session-Id on every request.');
    }
    return sendResponse(res, await sessions.open(request, principal, authInfo, parsed), onerror);
  };

  const handler = async (req: IncomingMessage & { auth?: AuthInfo; body?: unknown }, res: ServerResponse) => {
    try {
      await serve(req, res);
    } catch (error) {
      // Whatever broke, the process keeps serving: answer if nothing was sent yet, else drop the connection.
      logger.error('toolwright mcp: a request failed unexpectedly:', error);
      if (!res.headersSent && !res.destroyed) rpcError(res, 500, -32603, 'Internal error.');
      else res.destroy();
    }
  };

  return Object.assign(handler, {
    close: async () => {
      closed = true;
      await Promise.all([sessions.close(), modern.close()]);
    },
  });
}
