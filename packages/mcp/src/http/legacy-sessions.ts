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

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  /** Who opened it: nobody else may use it, or learn that it exists. */
  readonly principal: string;
  /** Requests still open (a POST waiting for its answer or streaming it). */
  exchanges: number;
  timer?: NodeJS.Timeout;
}

/**
 * The 2025-11-25 sessions of one endpoint, each bound to the principal that opened it. A
 * session is closed after `idleTimeoutMs` with no request open and no call running; its id then
 * gets 404, like an id that never existed or that belongs to someone else.
 */
export class LegacySessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly tools: McpToolServer<any>,
    private readonly idleTimeoutMs: number,
    private readonly resumability: Resumability | undefined,
  ) {}

  /** A new session for an `initialize` request. */
  async open(request: Request, principal: string, authInfo: AuthInfo | undefined, parsedBody: unknown): Promise<Response> {
    const resumable = this.resumability;
    const server = this.tools.createSession({ closeCallStreamsAfterMs: resumable?.closeCallStreamsAfterMs });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // The store lives and dies with this transport, so with this session.
      ...(resumable && { eventStore: new SessionEventStore(resumable), retryInterval: resumable.retryMs }),
      onsessioninitialized: (id) => void this.sessions.set(id, { transport, server, principal, exchanges: 0 }),
      onsessionclosed: (id) => this.forget(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.forget(transport.sessionId);
    };
    await server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo, parsedBody });
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
        if (--session.exchanges === 0 && this.sessions.get(id) === session) this.idle(id);
      },
      handle: (request, authInfo, parsedBody) => session.transport.handleRequest(request, { authInfo, parsedBody }),
    };
  }

  get size(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    const open = [...this.sessions.entries()];
    for (const [id] of open) this.forget(id);
    await Promise.all(open.map(([, s]) => s.transport.close()));
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
  }
}
