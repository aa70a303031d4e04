import { Server, type Implementation, type ServerOptions, type Transport } from '@modelcontextprotocol/server';
import type { DirectCalls } from './direct-calls';
import { SessionLogLevel } from './log-level';
import type { SessionCalls } from './session-calls';

/**
 * The SDK `Server` of one session: its calls, its `logging/setLevel` level, and, when it was given
 * the means, the direct answers to its plain 2025-11-25 `tools/call` requests (`DirectCalls`).
 */
export class ToolSessionServer extends Server {
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
