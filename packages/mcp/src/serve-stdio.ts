import { Writable } from 'node:stream';
import { StdioServerTransport, serveStdio as sdkServeStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { McpToolServer } from './create-mcp-server';

/**
 * Serves one client over this process's stdin and stdout, for desktop clients that launch the
 * server as a child process; the client's first message picks the revision (2025-11-25
 * `initialize` or 2026-07-28 `server/discover`). From this call on stdout carries only the
 * protocol: anything else the process writes there (a tool's `console.log`, a library's
 * `process.stdout.write`) goes to stderr instead, where clients keep the server's log.
 */
export function serveStdio(server: McpToolServer<any>): StdioServerHandle {
  return sdkServeStdio(server.factory, { transport: new StdioServerTransport(process.stdin, protocolStdout()) });
}

let protocol: Writable | undefined;

/**
 * The process's stdout for the protocol alone. Every other writer reaches stdout through
 * `process.stdout.write` (console.log included), so that method is pointed at stderr, and the
 * protocol writes with the original one. One line of anything else on stdout is a broken
 * message to the client, and may end the session.
 */
function protocolStdout(): Writable {
  if (protocol) return protocol;
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as (chunk: unknown, callback: (error?: Error | null) => void) => boolean;
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  const out = new Writable({ decodeStrings: false, write: (chunk, _encoding, callback) => void write(chunk, callback) });
  // A client that hangs up makes stdout fail (EPIPE): the transport hears it from this stream.
  stdout.on('error', (error) => out.destroy(error));
  protocol = out;
  return out;
}
