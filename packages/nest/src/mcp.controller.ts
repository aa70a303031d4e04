import { All, Controller, Req, Res, UseGuards, type OnModuleDestroy, type OnModuleInit, type Type } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpServer, mcpHttpHandler, type AuthInfo, type McpHttpHandler, type McpHttpOptions } from '@toolwright/mcp';
import { ToolsService } from './tools.service';
import { identityText } from './identity-text';
import type { McpRequest, ToolsMcpHttpOptions, ToolsMcpOptions } from './tools-mcp-options';

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
  class ToolsMcpController implements OnModuleInit, OnModuleDestroy {
    private handler?: McpHttpHandler;

    constructor(private readonly tools: ToolsService) {}

    /** Made while the app starts, so an option the handler refuses fails `app.init()`, not a request. */
    onModuleInit(): void {
      this.handler ??= this.createHandler();
    }

    @All(options.path)
    async serve(@Req() request: IncomingMessage & McpRequest & { auth?: AuthInfo; body?: unknown }, @Res() response: ServerResponse): Promise<void> {
      this.handler ??= this.createHandler();
      const header = request.headers.authorization;
      const token = typeof header === 'string' ? header.replace(/^Bearer\s+/i, '') : '';
      request.auth = { token, clientId: 'nest', scopes: [], extra: { [NEST_AUTH]: toAuth(request) } };
      await this.handler(request, response);
    }

    private createHandler(): McpHttpHandler {
      // Each option is the handler's own, by name and type: one renamed or retyped there fails here.
      const http: Pick<McpHttpOptions, keyof ToolsMcpHttpOptions> = options.http ?? {};
      return mcpHttpHandler(
        createMcpServer(this.tools.container, {
          name: options.name ?? 'toolwright',
          version: options.version ?? '1.0.0',
          auth: (info) => info?.extra?.[NEST_AUTH],
        }),
        // Every request carries clientId 'nest': the session belongs to the identity the guards found.
        { ...http, sessions: options.sessions, principal: (info, request) => (options.principal ? options.principal(request as McpRequest) : identityText(info?.extra?.[NEST_AUTH])) },
      );
    }

    async onModuleDestroy(): Promise<void> {
      await this.handler?.close();
    }
  }
  return ToolsMcpController;
}
