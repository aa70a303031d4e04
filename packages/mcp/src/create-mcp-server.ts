import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { consoleLogger, type ToolCall, type ToolContainer, type ToolDescription, type ToolEvent, type ToolLogger } from '@toolwright/core';
import { ArrivalOrder } from './arrival-order';
import { toMcpResult } from './call-result';
import { toMcpTool } from './tool-listing';

export interface McpServerOptions<TAuth = unknown> {
  /** The server's name in the `initialize` handshake. */
  name: string;
  version: string;
  /** Shown to clients after `initialize`: how to use these tools. */
  instructions?: string;
  /**
   * Turns the transport's authentication (a verified bearer token over HTTP; none over stdio)
   * into what tools read as `ctx.auth`. Runs for every call. Without it, `ctx.auth` is the
   * `AuthInfo` itself.
   */
  auth?: (authInfo: AuthInfo | undefined) => TAuth | Promise<TAuth>;
  /** Reads of one session running at once; later ones wait in arrival order. Default 8. */
  maxConcurrency?: number;
  /** Where a failing `auth` mapper is reported; stderr by default (stdout is the stdio protocol). */
  logger?: ToolLogger;
  onEvent?: (event: ToolEvent) => void;
}

/**
 * The tools of a `ToolContainer` as an MCP server. Each connection (a stdio pipe, an HTTP
 * session) gets its own SDK `Server` and its own call order: within a session, reads run
 * together and each write runs alone, in arrival order.
 */
export class McpToolServer<TAuth = unknown> {
  private readonly sessions = new Set<Server>();
  private readonly listing: McpTool[];
  private readonly byName: Map<string, ToolDescription>;

  constructor(
    readonly tools: ToolContainer<TAuth>,
    private readonly options: McpServerOptions<TAuth>,
  ) {
    const limit = options.maxConcurrency;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new RangeError(`createMcpServer: maxConcurrency must be a positive integer, got ${limit}.`);
    }
    const described = tools.describe();
    this.listing = described.map(toMcpTool);
    this.byName = new Map(described.map((t) => [t.name, t]));
  }

  /** A new session: an SDK `Server` answering `tools/list` and `tools/call`, not yet connected. */
  createSession(): Server {
    const server = new Server(
      { name: this.options.name, version: this.options.version },
      { capabilities: { tools: { listChanged: false } }, instructions: this.options.instructions },
    );
    const order = new ArrivalOrder(this.options.maxConcurrency ?? 8);
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.listing }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const { name, arguments: input = {} } = request.params;
      const tool = this.byName.get(name);
      const call = { id: callId(extra.sessionId, extra.requestId), name, input };
      // An unknown tool may write, as on the Claude path: nobody knows its effect.
      return order.admit(tool?.effect !== 'read', () => this.call(call, tool, extra.authInfo, extra.signal));
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

  /** Closes every open session. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close()));
  }

  private async call(call: ToolCall, tool: ToolDescription | undefined, authInfo: AuthInfo | undefined, signal: AbortSignal): Promise<CallToolResult> {
    let auth: TAuth;
    try {
      auth = this.options.auth ? await this.options.auth(authInfo) : (authInfo as TAuth);
    } catch (error) {
      (this.options.logger ?? consoleLogger).error(`toolwright mcp: the auth mapper failed for ${call.name}:`, error);
      return { content: [{ type: 'text', text: `Not allowed: ${call.name} could not authenticate this call.` }], isError: true };
    }
    const answer = await this.tools.executeCall(call, { auth, signal, onEvent: this.options.onEvent });
    return toMcpResult(answer, tool?.outputSchema !== undefined);
  }
}

/** What tools see as `ctx.toolUseId`: the JSON-RPC id, unique within its session. */
function callId(sessionId: string | undefined, requestId: string | number): string {
  return sessionId ? `mcp_${sessionId}_${requestId}` : `mcp_${requestId}`;
}

/** `createMcpServer(tools, { name, version, auth })`: the container's tools over MCP. */
export function createMcpServer<TAuth>(tools: ToolContainer<TAuth>, options: McpServerOptions<TAuth>): McpToolServer<TAuth> {
  return new McpToolServer(tools, options);
}
