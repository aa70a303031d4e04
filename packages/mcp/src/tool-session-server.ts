import { randomUUID } from 'node:crypto';
import { Server, type Implementation, type ServerOptions, type Transport } from '@modelcontextprotocol/server';
import type { DirectCalls } from './direct-calls';
import { SessionLogLevel } from './log-level';
import type { SessionCalls } from './session-calls';

/**
 * The SDK `Server` of one session: its calls, its `logging/setLevel` level, and, when it was given
 * the means, the direct answers to its plain 2025-11-25 `tools/call` requests (`DirectCalls`).
 */
export class ToolSessionServer extends Server {
  /**
   * Random, drawn when this server is created: what makes its calls' `ctx.toolUseId` unique.
   * JSON-RPC ids repeat across connections (every SDK client counts from 0), and a stdio server
   * or a stateless HTTP request has no session id; a new random id per server tells two users,
   * or two launches of a desktop server, apart. Not the `Mcp-Session-Id`: a tool passes its
   * `toolUseId` to other systems, which must not learn the credential-like session id.
   */
  readonly connectionId = randomUUID();
  readonly logLevel: SessionLogLevel;
  private readonly direct?: DirectCalls;

  constructor(
    info: Implementation,
    options: ServerOptions,
    readonly calls: SessionCalls,
    direct: ((server: ToolSessionServer) => DirectCalls) | undefined,
  ) {
    super(info, options);
    this.logLevel = new SessionLogLevel(this);
    this.direct = direct?.(this);
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    this.direct?.intercept(transport);
  }

  /** The transport closed: direct calls in flight are cancelled, as the SDK aborts its own. */
  closed(): void {
    this.direct?.cancelAll(new Error('Connection closed'));
  }
}
