export { createMcpServer, McpToolServer, type McpServerOptions, type SessionOptions } from './create-mcp-server';
export { serveStdio } from './serve-stdio';
export { mcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from './http-handler';
export type { AuthInfo, AuthMetadataOptions, OAuthTokenVerifier } from '@modelcontextprotocol/server';
