import { All, Controller, Req, Res, UseGuards, type OnModuleDestroy, type Type } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpServer, mcpHttpHandler, type AuthInfo, type McpHttpHandler } from '@toolwright/mcp';
import { ToolsService } from './tools.service';
import type { McpRequest, ToolsMcpOptions } from './tools-mcp-options';

/** Where the request's identity rides from the route to the tools: the `extra` of MCP's `AuthInfo`. */
const NEST_AUTH = 'toolwright.nest.auth';

/**
 * A controller serving the module's tools over Streamable HTTP at `options.path`. It is an
 * ordinary route, so the app's guards, interceptors and body parser apply; what the guards put
 * on the request reaches tools as `ctx.auth`.
 */
export function mcpController(options: ToolsMcpOptions): Type<unknown> {
  const toAuth = options.auth ?? ((request: McpRequest) => request.user);

  @Controller()
  @UseGuards(...(options.guards ?? []))
  class ToolsMcpController implements OnModuleDestroy {
    private handler?: McpHttpHandler;

    constructor(private readonly tools: ToolsService) {}

    @All(options.path)
    async serve(@Req() request: IncomingMessage & McpRequest & { auth?: AuthInfo; body?: unknown }, @Res() response: ServerResponse): Promise<void> {
      this.handler ??= mcpHttpHandler(
        createMcpServer(this.tools.container, {
          name: options.name ?? 'toolwright',
          version: options.version ?? '1.0.0',
          auth: (info) => info?.extra?.[NEST_AUTH],
        }),
        // Every request carries clientId 'nest': the session belongs to the identity the guards found.
        { sessions: options.sessions, principal: (info) => JSON.stringify(info?.extra?.[NEST_AUTH] ?? null) },
      );
      const header = request.headers.authorization;
      const token = typeof header === 'string' ? header.replace(/^Bearer\s+/i, '') : '';
      request.auth = { token, clientId: 'nest', scopes: [], extra: { [NEST_AUTH]: toAuth(request) } };
      await this.handler(request, response);
    }

    async onModuleDestroy(): Promise<void> {
      await this.handler?.close();
    }
  }
  return ToolsMcpController;
}
