import 'reflect-metadata';
import { ToolContainer } from '@toolwright/core';
import { createMcpServer, serveStdio } from '@toolwright/mcp';
import { OrdersRepository } from '../orders/orders.repository';
import { OrdersTools } from '../orders/orders.tools';
import type { Session } from '../orders/session';
import { toolManifest } from '../tools.generated';

/**
 * The orders tools as a stdio MCP server, for a desktop client to launch:
 *   node packages/examples/dist/mcp/main.js
 * A stdio server acts for the person who started it: here the customer comes from
 * TOOLWRIGHT_CUSTOMER_ID in the client's config. Without it, every write is refused by its guard.
 * TOOLWRIGHT_LATENCY_MS simulates a slow database (the tests use it to cancel a call in flight).
 * stdout carries the protocol; logs go to stderr.
 */
async function main(): Promise<void> {
  const customerId = process.env.TOOLWRIGHT_CUSTOMER_ID;
  const session: Session | undefined = customerId ? { customerId } : undefined;
  const tools = new ToolContainer<Session | undefined>({
    manifest: toolManifest,
    providers: [new OrdersTools(new OrdersRepository(Number(process.env.TOOLWRIGHT_LATENCY_MS ?? 0)))],
  });
  const server = createMcpServer(tools, { name: 'toolwright-orders', version: '0.1.0', auth: () => session });
  await serveStdio(server);
  console.error(`toolwright-orders: MCP over stdio, ${tools.names.length} tools, customer ${customerId ?? '(none)'}`);
}

void main();
