import { createHash, randomUUID } from 'node:crypto';
import {
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
  type AuthInfo,
  type CallToolResult,
  type InputRequiredResult,
  type McpServerFactory,
  type Server,
  type ServerContext,
  type Tool as McpTool,
  type Transport,
} from '@modelcontextprotocol/server';
import { consoleLogger, type CallOptions, type CallResult, type ToolContainer, type ToolDescription, type ToolEvent, type ToolLogger } from '@toolwright/core';
import { McpApproval } from './approval-over-mcp';
import { toMcpResult } from './call-result';
import { clientOf, linkOf } from './client-bridge';
import { DirectCalls, type DirectCall } from './direct-calls';
import { principalOf } from './principal';
import { PrincipalOrders } from './principal-orders';
import { SessionCalls, type CallRequest } from './session-calls';
import { ToolSessionServer } from './tool-session-server';
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
  /**
   * Who the session's requests speak for, when the transport knows better than their `AuthInfo`
   * (`mcpHttpHandler`'s `principal` option). On 2026-07-28 it keys the call order and binds the
   * approval state. Default: each request's verified client id and subject.
   */
  principal?: string;
}

/**
 * The tools of a `ToolContainer` as an MCP server, on both revisions the official SDK serves:
 * 2025-11-25 (sessions, `initialize`) and 2026-07-28 (stateless, `server/discover`, a `_meta`
 * envelope on every request). Within a session, reads run together and each write runs alone,
 * in arrival order; without sessions, the same holds for each principal's calls.
 */
export class McpToolServer<TAuth = unknown> {
  private readonly sessions = new Set<Server>();
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
    const principalOfCall = (authInfo: AuthInfo | undefined) => options.principal ?? principalOf(authInfo);
    const calls = new SessionCalls(this.maxConcurrency, this.principals, (name) => this.byName.get(name)?.effect, principalOfCall, options.closeCallStreamsAfterMs);
    // While no call can need a person, calls skip the SDK's per-request machinery (the approval
    // check reads the SDK's request context, so with approval they keep to its handler).
    const direct = this.approval.mayAsk
      ? undefined
      : (server: ToolSessionServer) => new DirectCalls(server, server.logLevel, (call) => calls.admit(call, () => this.answerDirect(server, call)));
    const server = new ToolSessionServer(
      { name: this.options.name, version: this.options.version },
      {
        capabilities: { tools: { listChanged: false }, logging: {} },
        instructions: this.options.instructions,
        requestState: { verify: (state, ctx) => this.approval.verify(state, ctx, principalOfCall(ctx.http?.authInfo)) },
      },
      calls,
      direct,
    );
    server.setRequestHandler('tools/list', () => ({ tools: this.listing }));
    server.setRequestHandler('tools/call', (request, ctx) => {
      const { name, arguments: input = {}, _meta } = request.params;
      const call: CallRequest = { name, input, meta: _meta, sessionId: ctx.sessionId, authInfo: ctx.http?.authInfo, link: linkOf(ctx, server.logLevel), closeStream: ctx.http?.closeSSE };
      return calls.admit(call, () => this.answerThroughSdk(server, ctx, call, principalOfCall(call.authInfo)));
    });
    this.sessions.add(server);
    server.onclose = () => {
      this.sessions.delete(server);
      server.closed();
    };
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
    return server instanceof ToolSessionServer ? server.calls.running : 0;
  }

  /** Closes every open session. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close()));
  }

  private async answerThroughSdk(server: ToolSessionServer, ctx: ServerContext, request: CallRequest, principal: string): Promise<CallToolResult | InputRequiredResult> {
    const call = { id: callId(server, request), name: request.name, input: request.input };
    const auth = await this.authOf(request);
    if (auth.refusal) return auth.refusal;
    if (this.approval.mayAsk) {
      const verdict = await this.approval.decide(server, ctx, call, auth.value, principal);
      if (!verdict.run) return verdict.result;
    }
    const answer = await this.tools.executeCall(call, { ...this.callOptions(server, request, auth.value), signal: ctx.mcpReq.signal });
    return this.resultOf(server, request.name, answer);
  }

  private async answerDirect(server: ToolSessionServer, request: DirectCall): Promise<CallToolResult> {
    const call = { id: callId(server, request), name: request.name, input: request.input };
    const auth = await this.authOf(request);
    if (auth.refusal) return auth.refusal;
    const options = this.callOptions(server, request, auth.value);
    // Cancelled while it waited for its turn: answered as the SDK's handler answers an aborted
    // request (skipped, never started), with the one signal it then needs.
    if (request.link.cancelled) return this.resultOf(server, request.name, await this.tools.executeCall(call, { ...options, signal: request.link.signal }));
    const started = this.tools.startCall(call, options);
    request.link.started(started.cancel);
    return this.resultOf(server, request.name, await started.answer);
  }

  private async authOf(request: CallRequest): Promise<{ value: TAuth; refusal?: undefined } | { refusal: CallToolResult }> {
    if (!this.options.auth) return { value: request.authInfo as TAuth };
    try {
      return { value: await this.options.auth(request.authInfo) };
    } catch (error) {
      (this.options.logger ?? consoleLogger).error(`toolwright mcp: the auth mapper failed for ${request.name}:`, error);
      return { refusal: errorResult(`Not allowed: ${request.name} could not authenticate this call.`) };
    }
  }

  private callOptions(server: Server, request: CallRequest, auth: TAuth): CallOptions<TAuth> {
    const client = clientOf(server, request.link, request.meta?.progressToken);
    return { auth, onEvent: this.options.onEvent, client, traceContext: traceContextOf(request.meta) };
  }

  private resultOf(server: Server, name: string, answer: CallResult): CallToolResult {
    const outputSchema = this.byName.get(name)?.outputSchema;
    return server.projectCallToolResult(toMcpResult(answer, outputSchema !== undefined), outputSchema);
  }
}

/** The W3C Trace Context a request's `_meta` carries (SEP-414), for the call's span. */
function traceContextOf(meta: CallRequest['meta']): Record<string, string> | undefined {
  const traceparent = meta?.[TRACEPARENT_META_KEY];
  if (typeof traceparent !== 'string') return undefined;
  const tracestate = meta?.[TRACESTATE_META_KEY];
  return { traceparent, ...(typeof tracestate === 'string' && { tracestate }) };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * What tools see as `ctx.toolUseId`, their idempotency key downstream, so unique across clients
 * and restarts. On 2025-11-25 (a session, stdio, or a stateless HTTP request): the JSON-RPC id
 * within its connection, the SDK server's random `connectionId`; a request sent again under the
 * same id on the same connection keeps its key. JSON-RPC ids alone repeat across connections
 * (every client counts from 0): two users, or two launches of a stdio server, got one key.
 * 2026-07-28 has no connection at all, so each call gets a fresh one.
 */
function callId(server: ToolSessionServer, request: CallRequest): string {
  return request.link.legacy ? `mcp_${server.connectionId}_${requestKey(request.link.id)}` : `mcp_${randomUUID()}`;
}

/**
 * A JSON-RPC id in a key: a number as it is; a string, any text of any length the client chose,
 * as a digest tagged `s`. Ids `1` and `"1"` are two requests, so two keys, and what reaches a
 * downstream system (an `Idempotency-Key` header, say) is short and plain whatever the client sent.
 */
function requestKey(id: string | number): string {
  return typeof id === 'number' ? String(id) : `s${createHash('sha256').update(id).digest('base64url').slice(0, 22)}`;
}

/** `createMcpServer(tools, { name, version, auth })`: the container's tools over MCP. */
export function createMcpServer<TAuth>(tools: ToolContainer<TAuth>, options: McpServerOptions<TAuth>): McpToolServer<TAuth> {
  return new McpToolServer(tools, options);
}
