import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mcpHttpHandler, type McpHttpOptions, type McpToolServer } from '@toolwright/mcp';

/** Bearer tokens the test verifier accepts, and the customer each one stands for. */
export const TOKENS: Record<string, string> = { 't-ana': 'C-ana', 't-bruno': 'C-bruno' };

export const verifier = {
  async verifyAccessToken(token: string) {
    if (token === 't-expired') return { token, clientId: 'C-ana', scopes: ['orders'], expiresAt: Math.floor(Date.now() / 1000) - 60 };
    const customer = TOKENS[token];
    if (!customer) throw new InvalidTokenError('unknown token');
    return { token, clientId: customer, scopes: ['orders'], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
  },
};

/** Records what the handler logs, instead of printing it. */
export class RecordingLogger {
  readonly lines: string[] = [];
  error = (...args: unknown[]) => void this.lines.push(args.map(String).join(' '));
  warn = (...args: unknown[]) => void this.lines.push(args.map(String).join(' '));
}

/** `server` behind `mcpHttpHandler` on a loopback port; `rejected` collects anything the handler's promise rejected with (it must stay empty). */
export async function listen(server: McpToolServer<any>, options: McpHttpOptions = { verifier }) {
  const logger = new RecordingLogger();
  const handler = mcpHttpHandler(server, { logger, ...options });
  const rejected: unknown[] = [];
  const httpServer = http.createServer((req, res) => void handler(req, res).catch((error: unknown) => rejected.push(error)));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`);
  return {
    url,
    handler,
    logger,
    rejected,
    async close() {
      await handler.close();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}

/** The official SDK client over Streamable HTTP, with a bearer token when given. */
export async function httpClient(url: URL, token?: string): Promise<Client> {
  const client = new Client({ name: 'toolwright-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** The text of a result's content blocks, joined. */
export function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
}

/**
 * Runs `work` while a probe call is held (`ProbeLog.hold`), then releases it. A `work` that waits
 * for the held call would wait for ever: the call is released after 2 s, so the check that follows
 * fails instead of the test hanging.
 */
export async function releasingAfter(release: () => void, work: () => Promise<unknown>): Promise<void> {
  const failSafe = setTimeout(release, 2_000);
  try {
    await work();
  } finally {
    clearTimeout(failSafe);
    release();
  }
}

/** Waits until `condition` holds, polling every 5 ms; fails after 2.5 s. */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition not met within 2.5 s');
}
