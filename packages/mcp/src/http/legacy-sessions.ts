import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type Server } from '@modelcontextprotocol/server';
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
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // The store lives and dies with this transport, so with this session.
      ...(resumable && { eventStore: new SessionEventStore(resumable), retryInterval: resumable.retryMs }),
      onsessioninitialized: (id) => this.remember(id, { transport, server, principal, exchanges: 0, lastUsed: ++this.uses }),
      onsessionclosed: (id) => this.forget(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.forget(transport.sessionId);
    };
    await server.connect(transport);
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
  find(id: string, principal: string): { enter(): void; leave(): void; handle(request: Request, authInfo: AuthInfo | undefined, parsedBody: unknown): Promise<Response> } | undefined {
    const session = this.sessions.get(id);
    if (!session || session.principal !== principal) return undefined;
    return {
      enter: () => {
        session.exchanges++;
        clearTimeout(session.timer);
      },
      leave: () => {
        session.lastUsed = ++this.uses;
        if (--session.exchanges === 0 && this.sessions.get(id) === session) this.idle(id);
      },
      handle: (request, authInfo, parsedBody) => session.transport.handleRequest(request, { authInfo, parsedBody }),
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
