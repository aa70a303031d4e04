import type { Server } from '@modelcontextprotocol/server';
import type { ToolLogLevel } from '@toolwright/core';

/** RFC 5424's severities, least severe first, as MCP's `logging/setLevel` names them. */
const SEVERITY: readonly ToolLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * The log level a 2025-11-25 client set for its session with `logging/setLevel`: messages below
 * it are not sent. Kept here rather than in the SDK's server, because calls answered directly
 * (`DirectCalls`) log without the SDK's request context, and both paths must filter alike.
 */
export class SessionLogLevel {
  /** Everything goes out until the client sets a level. */
  private threshold = 0;

  /** Answers the session's `logging/setLevel` requests (the SDK has validated the level). */
  constructor(server: Server) {
    server.setRequestHandler('logging/setLevel', (request) => {
      this.threshold = SEVERITY.indexOf(request.params.level);
      return {};
    });
  }

  allows(level: ToolLogLevel): boolean {
    return SEVERITY.indexOf(level) >= this.threshold;
  }
}
