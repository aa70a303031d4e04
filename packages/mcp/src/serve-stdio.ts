import { serveStdio as sdkServeStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { McpToolServer } from './create-mcp-server';

/**
 * Serves one client over this process's stdin and stdout, for desktop clients that launch the
 * server as a child process; the client's first message picks the revision (2025-11-25
 * `initialize` or 2026-07-28 `server/discover`). Everything else the process writes must go to
 * stderr.
 */
export function serveStdio(server: McpToolServer<any>): StdioServerHandle {
  return sdkServeStdio(server.factory);
}
