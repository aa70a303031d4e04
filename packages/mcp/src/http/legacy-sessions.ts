import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, isJSONRPCRequest, type AuthInfo, type JSONRPCMessage, type RequestId, type Server } from '@modelcontextprotocol/server';
import type { McpToolServer } from '../create-mcp-server';
import { SessionEventStore, type EventStoreLimits } from './session-event-store';

/** Resumable streams (SEP-1699): what each session keeps, and how clients are told to come back. */
export interface Resumability extends EventStoreLimits {
  /** The `retry` (ms) of every stream's priming event: how long a client waits before reconnecting. */
  retryMs: number;
  /** A call still running after this long has its stream closed; the client reconnects and gets the rest. */
  closeCallStreamsAfterMs?: number;
}

/** How many 2025-11-25 sessions may be open at once. */
export interface SessionLimits {
  /** Sessions of one principal (all anonymous clients are one principal). */
  perPrincipal: number;
  /** Sessions of every principal together. */
  total: number;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  /** Who opened it: nobody else may use it, or learn that it exists. */
  readonly principal: string;
  /** Requests still open (a POST waiting for its answer or streaming it). */
  exchanges: number;
  /** The JSON-RPC ids of the open POSTs that carry one request each: the stream a cancellation may end. */
  readonly singles: Set<RequestId>;
  /** When a request of it last ended (or it opened), as a tick of `LegacySessions.uses`: the least recently used idle one is evicted first. */
  lastUsed: number;
  timer?: NodeJS.Timeout;
}

/**
 * The 2025-11-25 sessions of one endpoint, each bound to the principal that opened it. A
 * session is closed after `idleTimeoutMs` with no request open and no call running; its id then
 * gets 404, like an id that never existed or that belongs to someone else.
 */
export class LegacySessions {
  private readonly sessions = new Map<string, Session>();
  /** The open sessions' ids, by principal. */
  private readonly byPrincipal = new Map<string, Set<string>>();
  /** Initializes under way (a slot is taken before the session exists, so concurrent ones cannot overshoot). */
  private opening = 0;
  private readonly openingBy = new Map<string, number>();
  /** A counter, not a clock: two sessions used within one millisecond still have an order. */
  private uses = 0;
  /** Set by `close`: an initialize still under way then opens nothing. */
  private closed = false;

  constructor(
    private readonly tools: McpToolServer<any>,
    private readonly idleTimeoutMs: number,
    private readonly resumability: Resumability | undefined,
    private readonly limits: SessionLimits,
  ) {}

  /**
   * A new session for an `initialize` request, within `limits`. Every session costs memory (an SDK
   * server, its transport, an event store of up to `maxBytes`) for `idleTimeoutMs`, so one client
   * looping on `initialize` could exhaust the process.
   *
   * A principal at its limit loses its least recently used idle session (no request open, no call
   * running) to the new one, rather than being refused: a client that forgot its sessions (a
   * restart, a crash) keeps working without waiting out `idleTimeoutMs`, and an evicted session's
   * client gets 404 and initializes again, as the protocol has it. Only the principal's own
   * sessions are evicted, so a greedy principal hurts no one else. If none of its sessions is idle,
   * 429. At the overall limit the answer is 503, never an eviction: that would let one principal
   * close another's sessions.
   */
  async open(request: Request, principal: string, authInfo: AuthInfo | undefined, parsedBody: unknown): Promise<Response> {
    if (this.sessions.size + this.opening >= this.limits.total) {
      return limitReached(
        503,
        parsedBody,
        `Too many MCP sessions are open on this server (maxSessions.total = ${this.limits.total}). Try again later, and close the sessions you no longer use (DELETE with their Mcp-Session-Id).`,
      );
    }
    const own = this.byPrincipal.get(principal);
    let evictee: Session | undefined;
    if ((own?.size ?? 0) + (this.openingBy.get(principal) ?? 0) >= this.limits.perPrincipal) {
      const evicted = this.leastRecentlyUsedIdle(own);
      if (!evicted) {
        return limitReached(
          429,
          parsedBody,
          `Too many MCP sessions open for this client (maxSessions.perPrincipal = ${this.limits.perPrincipal}), all of them busy. Reuse an open session (its Mcp-Session-Id), or close one (DELETE) before initializing another.`,
        );
      }
      evictee = this.sessions.get(evicted)!;
      this.forget(evicted);
    }
    // The slot is taken before anything is awaited: a concurrent initialize then counts it.
    this.opening++;
    this.openingBy.set(principal, (this.openingBy.get(principal) ?? 0) + 1);
    try {
      await evictee?.transport.close().catch(() => undefined);
      return await this.start(request, principal, authInfo, parsedBody);
    } finally {
      this.opening--;
      const left = this.openingBy.get(principal)! - 1;
      if (left === 0) this.openingBy.delete(principal);
      else this.openingBy.set(principal, left);
    }
  }

  private async start(request: Request, principal: string, authInfo: AuthInfo | undefined, parsedBody: unknown): Promise<Response> {
    const resumable = this.resumability;
    const server = this.tools.createSession({ closeCallStreamsAfterMs: resumable?.closeCallStreamsAfterMs });
    const singles = new Set<RequestId>();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // The store lives and dies with this transport, so with this session.
      ...(resumable && { eventStore: new SessionEventStore(resumable), retryInterval: resumable.retryMs }),
      onsessioninitialized: (id) => this.remember(id, { transport, server, principal, exchanges: 0, singles, lastUsed: ++this.uses }),
      onsessionclosed: (id) => this.forget(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.forget(transport.sessionId);
    };
    await server.connect(transport);
    endCancelledStreams(transport, singles);
    const response = await transport.handleRequest(request, { authInfo, parsedBody });
    if (this.closed) {
      // close() came while this initialize was under way: it must not leave a session behind.
      if (transport.sessionId) this.forget(transport.sessionId);
      await response.body?.cancel().catch(() => undefined);
      await server.close();
      return rpcErrorResponse(503, parsedBody, SHUTTING_DOWN);
    }
    // An initialize the transport refused opened nothing: without an id nobody can reach it again.
    if (!transport.sessionId || !this.sessions.has(transport.sessionId)) await server.close();
    else this.idle(transport.sessionId);
    return response;
  }

  /** The session `id` as seen by `principal`, or `undefined`: unknown, closed, or someone else's. */
  find(id: string, principal: string): SessionExchanges | undefined {
    const session = this.sessions.get(id);
    if (!session || session.principal !== principal) return undefined;
    return {
      stream: (request, authInfo) => session.transport.handleRequest(request, { authInfo }),
      exchange: async (request, authInfo, parsedBody, send) => {
        session.exchanges++;
        clearTimeout(session.timer);
        const single = isJSONRPCRequest(parsedBody) ? parsedBody.id : undefined;
        if (single !== undefined) session.singles.add(single);
        try {
          await send(await session.transport.handleRequest(request, { authInfo, parsedBody }));
        } finally {
          if (single !== undefined) session.singles.delete(single);
          session.lastUsed = ++this.uses;
          if (--session.exchanges === 0 && this.sessions.get(id) === session) this.idle(id);
        }
      },
    };
  }

  get size(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    const open = [...this.sessions.entries()];
    for (const [id] of open) this.forget(id);
    await Promise.all(open.map(([, s]) => s.transport.close()));
  }

  private remember(id: string, session: Session): void {
    this.sessions.set(id, session);
    let own = this.byPrincipal.get(session.principal);
    if (!own) this.byPrincipal.set(session.principal, (own = new Set()));
    own.add(id);
  }

  /** Of `ids`, the session with no request open and no call running that was used longest ago. */
  private leastRecentlyUsedIdle(ids: Set<string> | undefined): string | undefined {
    let oldest: { id: string; lastUsed: number } | undefined;
    for (const id of ids ?? []) {
      const session = this.sessions.get(id)!;
      if (session.exchanges > 0 || this.tools.callsRunning(session.server) > 0) continue;
      if (!oldest || session.lastUsed < oldest.lastUsed) oldest = { id, lastUsed: session.lastUsed };
    }
    return oldest?.id;
  }

  private idle(id: string): void {
    const session = this.sessions.get(id)!;
    clearTimeout(session.timer);
    session.timer = setTimeout(() => {
      // A call may outlive the request that made it (its client went away): the session stays until it ends.
      if (session.exchanges > 0) return;
      if (this.tools.callsRunning(session.server) > 0) return this.idle(id);
      this.forget(id);
      void session.transport.close();
    }, this.idleTimeoutMs).unref();
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    clearTimeout(session.timer);
    this.sessions.delete(id);
    const own = this.byPrincipal.get(session.principal);
    own?.delete(id);
    if (own?.size === 0) this.byPrincipal.delete(session.principal);
  }
}

/**
 * Ends the stream of a request the client cancelled. No response is sent for a cancelled request
 * (the protocol says so, and neither the SDK's handler nor a direct call sends one), and the
 * transport ends a POST's stream only once every request on it has its response: the stream
 * stayed open for ever, keep-alive pings and all, and the session counted it as a request open,
 * so it never idled out. Only a POST that carries the one request is ended; a batch's stream also
 * carries its other requests' answers.
 */
function endCancelledStreams(transport: WebStandardStreamableHTTPServerTransport, singles: Set<RequestId>): void {
  // Set by the server's connect (and wrapped by its direct calls), which has run: the cancellation
  // reaches the call first, then its stream ends.
  const dispatch = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    dispatch(message, extra);
    const cancelled = cancelledRequestOf(message);
    if (cancelled !== undefined && singles.has(cancelled)) transport.closeSSEStream(cancelled);
  };
}

function cancelledRequestOf(message: JSONRPCMessage): RequestId | undefined {
  if (!('method' in message) || 'id' in message || message.method !== 'notifications/cancelled') return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === 'string' || typeof requestId === 'number' ? requestId : undefined;
}

/** A session's requests, for the handler: the standing `GET` stream, and each exchange counted while it is open. */
export interface SessionExchanges {
  /** A `GET`: the stream for server messages, which does not keep the session from idling. */
  stream(request: Request, authInfo: AuthInfo | undefined): Promise<Response>;
  /** Any other request, open (the session not idle) until `send` has written its whole answer. */
  exchange(request: Request, authInfo: AuthInfo | undefined, parsedBody: unknown, send: (response: Response) => Promise<void>): Promise<void>;
}

/** What a request to a closed handler is told. */
export const SHUTTING_DOWN = 'This MCP server is shutting down: send the request again later, or to another instance.';

/** The answer to an `initialize` over a session limit: a JSON-RPC error naming the limit and what to do. */
function limitReached(status: 429 | 503, parsedBody: unknown, message: string): Response {
  // Sessions free up as they idle out or are closed; a client should not hammer meanwhile.
  return rpcErrorResponse(status, parsedBody, message, { 'retry-after': '5' });
}

/** A JSON-RPC error as an HTTP answer, with the request's id when it has one. */
function rpcErrorResponse(status: number, parsedBody: unknown, message: string, headers: Record<string, string> = {}): Response {
  const id = (parsedBody as { id?: unknown } | undefined)?.id;
  const body = { jsonrpc: '2.0', error: { code: -32000, message }, id: typeof id === 'string' || typeof id === 'number' ? id : null };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
