import type { CanActivate, Type } from '@nestjs/common';
import type { ToolLogger } from '@toolwright/core';

/** `ToolsModule.forRoot({ mcp })`: the module's tools over MCP Streamable HTTP, inside the app. */
export interface ToolsMcpOptions {
  /** The route, on every HTTP method, e.g. `'/mcp'`. Global guards apply to it like to any route. */
  path: string;
  /** Guards for this route only, on top of the app's global guards (`@UseGuards` on the MCP controller). */
  guards?: Array<Type<CanActivate> | CanActivate>;
  /** The server name and version in the `initialize` handshake. Default `'toolwright'`, `'1.0.0'`. */
  name?: string;
  version?: string;
  /** `'stateful'` (default) keeps sessions and their call order; `'stateless'` serves each request alone. */
  sessions?: 'stateful' | 'stateless';
  /** What tools read as `ctx.auth`, from the request the guards let through. Default: `request.user`. */
  auth?: (request: McpRequest) => unknown;
  /**
   * Whom a session belongs to (another user is answered 404 on it) and whose calls keep one order:
   * text unique per user. Default: what `auth` returns, as canonical JSON, when that is plain data
   * (strings, numbers, bigints, booleans, plain objects and arrays); any other identity (a class
   * instance, whose `#private` fields JSON cannot see) is refused, logged, until this is given.
   */
  principal?: (request: McpRequest) => string;
  /**
   * The HTTP handler's protections (`mcpHttpHandler`'s options of the same names). `allowedHosts`
   * above all: by default only the loopback names are served (DNS rebinding), so a deployed app
   * lists the host names its clients use. Authentication is the guards' here, and whom a session
   * belongs to is the identity they found, so the token options and `principal` are not taken.
   * A value the handler refuses fails `app.init()`.
   */
  http?: ToolsMcpHttpOptions;
}

/**
 * `mcpHttpHandler`'s options of the same names (see them there), written out rather than imported
 * so that an app without `@toolwright/mcp` installed still compiles these types; the controller
 * checks them against the handler's, so a rename or a new type there fails the build here.
 */
export interface ToolsMcpHttpOptions {
  /** Host names (no port) a request's `Host` may name, else 403. Default: the loopback names. */
  allowedHosts?: string[];
  /** Host names a browser `Origin` may have, else 403. Default: the loopback names. */
  allowedOrigins?: string[];
  /** Largest body read when no body parser ran first; else 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /** A 2025-11-25 session idle this long is closed. Default 30 minutes. */
  idleTimeoutMs?: number;
  /** 2025-11-25 sessions open at once, per user (the guards' identity) and in all. Default 100 and 2,000. */
  maxSessions?: { perPrincipal?: number; total?: number };
  /** Resumable SSE streams for 2025-11-25 sessions; `false` turns them off. */
  resumability?: false | { maxEvents?: number; maxBytes?: number; retryMs?: number; closeCallStreamsAfterMs?: number };
  /** Where refused requests and broken connections are reported. Default stderr. */
  logger?: ToolLogger;
}

/** The request as the MCP route sees it after the guards (Express). */
export interface McpRequest {
  headers: Record<string, string | string[] | undefined>;
  user?: unknown;
}
