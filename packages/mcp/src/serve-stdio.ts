import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpToolServer } from './create-mcp-server';

/**
 * Serves one session over this process's stdin and stdout, for desktop clients that launch the
 * server as a child process. Everything else the process writes must go to stderr.
 */
export function serveStdio(server: McpToolServer<any>): Promise<Server> {
  return server.connect(new StdioServerTransport());
}
