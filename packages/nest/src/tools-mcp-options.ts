import type { CanActivate, Type } from '@nestjs/common';

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
}

/** The request as the MCP route sees it after the guards (Express). */
export interface McpRequest {
  headers: Record<string, string | string[] | undefined>;
  user?: unknown;
}
