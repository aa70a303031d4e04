import { randomUUID } from 'node:crypto';
import { Server, TRACEPARENT_META_KEY, TRACESTATE_META_KEY, type AuthInfo, type CallToolResult, type McpServerFactory, type ServerContext, type Tool as McpTool, type Transport } from '@modelcontextprotocol/server';
import { consoleLogger, type ToolCall, type ToolContainer, type ToolDescription, type ToolEvent, type ToolLogger } from '@toolwright/core';
import { McpApproval } from './approval-over-mcp';
import { ArrivalOrder } from './arrival-order';
import { toMcpResult } from './call-result';
import { clientOf, isLegacyEra } from './client-bridge';
import { principalOf } from './principal';
import { PrincipalOrders } from './principal-orders';
import { toMcpTool } from './tool-listing';

export interface McpServerOptions<TAuth = unknown> {
  /** The server's name in the `initialize` handshake and `server/discover`. */
  name: string;
  version: string;
  /** Shown to clients: how to use these tools. */
  instructions?: string;
  /**
   * Turns the transport's authentication (a verified bearer token over HTTP; none over stdio)
   * into what tools read as `ctx.auth`. Runs for every call. Without it, `ctx.auth` is the
   * `AuthInfo` itself.
   */
  auth?: (authInfo: AuthInfo | undefined) => TAuth | Promise<TAuth>;
  /** Reads of one session (or, on 2026-07-28, one principal) running at once; later ones wait in arrival order. Default 8. */
  maxConcurrency?: number;
  /** Where a failing `auth` mapper is reported; stderr by default (stdout is the stdio protocol). */
  logger?: ToolLogger;
  onEvent?: (event: ToolEvent) => void;
}

/** How one session serves, as its transport allows. */
export interface SessionOptions {
  /** Over Streamable HTTP with an event store: a call still running after this long has its SSE stream closed (the client reconnects for the rest). */
  closeCallStreamsAfterMs?: number;
}

/** What a call's order is kept by: its session (2025-11-25, stdio), or its principal (2026-07-28). */
type CallOrder = { admit<T>(ctx: ServerContext, isWrite: boolean, work: () => Promise<T>): Promise<T> };

/**
 * The tools of a `ToolContainer` as an MCP server, on both revisions the official SDK serves:
 * 2025-11-25 (sessions, `initialize`) and 2026-07-28 (stateless, `server/discover`, a `_meta`
 * envelope on every request). Within a session, reads run together and each write runs alone,
 * in arrival order; without sessions, the same holds for each principal's calls.
 */
export class McpToolServer<TAuth = unknown> {
  private readonly sessions = new Set<Server>();
  /** Per session, its calls admitted and not yet answered. */
  private readonly running = new WeakMap<Server, { calls: number }>();
  private readonly listing: McpTool[];
  private readonly byName: Map<string, ToolDescription>;
  private readonly approval: McpApproval;
  private readonly principals: PrincipalOrders;
  private readonly maxConcurrency: number;

  constructor(
    readonly tools: ToolContainer<TAuth>,
    private readonly options: McpServerOptions<TAuth>,
  ) {
    const limit = options.maxConcurrency;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new RangeError(`createMcpServer: maxConcurrency must be a positive integer, got ${limit}.`);
    }
    this.maxConcurrency = limit ?? 8;
    const described = tools.describe();
    this.listing = described.map(toMcpTool);
    this.byName = new Map(described.map((t) => [t.name, t]));
    this.approval = new McpApproval(tools);
    this.principals = new PrincipalOrders(this.maxConcurrency);
  }

  /**
   * For the SDK's serving entries (`createMcpHandler`, `serveStdio`): a fresh SDK `Server` per
   * serving unit. A 2025 session keeps its own order; 2026-07-28 requests share their principal's.
   */
  readonly factory: McpServerFactory = () => this.createSession();

  /** A new SDK `Server` answering `tools/list` and `tools/call`, not yet connected. */
  createSession(options: SessionOptions = {}): Server {
    const server = new Server(
      { name: this.options.name, version: this.options.version },
      {
        capabilities: { tools: { listChanged: false }, logging: {} },
        instructions: this.options.instructions,
        requestState: { verify: this.approval.verify },
      },
    );
    const session = new ArrivalOrder(this.maxConcurrency);
    const running = { calls: 0 };
    this.running.set(server, running);
    const finished = () => void running.calls--;
    const order: CallOrder = {
      admit: (ctx, isWrite, work) => (isLegacyEra(ctx) ? session.admit(isWrite, work) : this.principals.admit(principalOf(ctx.http?.authInfo), isWrite, work)),
    };
    server.setRequestHandler('tools/list', () => ({ tools: this.listing }));
    server.setRequestHandler('tools/call', (request, ctx) => {
      const { name, arguments: input = {}, _meta } = request.params;
      const tool = this.byName.get(name);
      const call = { id: callId(ctx), name, input };
      // An unknown tool may write, as on the Claude path: nobody knows its effect.
      running.calls++;
      const done = order.admit(ctx, tool?.effect !== 'read', () => this.call(server, ctx, call, tool, _meta));
      done.then(finished, finished);
      const close = ctx.http?.closeSSE;
      if (options.closeCallStreamsAfterMs !== undefined && close) {
        const timer = setTimeout(close, options.closeCallStreamsAfterMs).unref();
        const answered = () => clearTimeout(timer);
        done.then(answered, answered);
      }
      return done;
    });
    this.sessions.add(server);
    server.onclose = () => this.sessions.delete(server);
    return server;
  }

  /** Connects a new session to `transport` (stdio, Streamable HTTP, in-memory). */
  async connect(transport: Transport): Promise<Server> {
    const server = this.createSession();
    await server.connect(transport);
    return server;
  }

  /** Calls of `server` admitted and not yet answered: a session is not idle while one runs. */
  callsRunning(server: Server): number {
    return this.running.get(server)?.calls ?? 0;
  }

  /** Closes every open session. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close()));
  }

  private async call(server: Server, ctx: ServerContext, call: ToolCall, tool: ToolDescription | undefined, meta: RequestMeta | undefined) {
    const authInfo = ctx.http?.authInfo;
    let auth: TAuth;
    try {
      auth = this.options.auth ? await this.options.auth(authInfo) : (authInfo as TAuth);
    } catch (error) {
      (this.options.logger ?? consoleLogger).error(`toolwright mcp: the auth mapper failed for ${call.name}:`, error);
      return errorResult(`Not allowed: ${call.name} could not authenticate this call.`);
    }
    if (this.approval.mayAsk) {
      const verdict = await this.approval.decide(server, ctx, call, auth);
      if (!verdict.run) return verdict.result;
    }
    const client = clientOf(server, ctx, meta?.progressToken);
    const answer = await this.tools.executeCall(call, { auth, signal: ctx.mcpReq.signal, onEvent: this.options.onEvent, client, traceContext: traceContextOf(meta) });
    return server.projectCallToolResult(toMcpResult(answer, tool?.outputSchema !== undefined), tool?.outputSchema);
  }
}

type RequestMeta = { progressToken?: string | number; [key: string]: unknown };

/** The W3C Trace Context a request's `_meta` carries (SEP-414), for the call's span. */
function traceContextOf(meta: RequestMeta | undefined): Record<string, string> | undefined {
  const traceparent = meta?.[TRACEPARENT_META_KEY];
  if (typeof traceparent !== 'string') return undefined;
  const tracestate = meta?.[TRACESTATE_META_KEY];
  return { traceparent, ...(typeof tracestate === 'string' && { tracestate }) };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * What tools see as `ctx.toolUseId`: the JSON-RPC id within its session. Without a session
 * (2026-07-28) ids repeat across clients, so each call gets a fresh one.
 */
function callId(ctx: ServerContext): string {
  if (ctx.sessionId) return `mcp_${ctx.sessionId}_${ctx.mcpReq.id}`;
  return isLegacyEra(ctx) ? `mcp_${ctx.mcpReq.id}` : `mcp_${randomUUID()}`;
}

/** `createMcpServer(tools, { name, version, auth })`: the container's tools over MCP. */
export function createMcpServer<TAuth>(tools: ToolContainer<TAuth>, options: McpServerOptions<TAuth>): McpToolServer<TAuth> {
  return new McpToolServer(tools, options);
}
