// `tools/call` round trip of `buscar_pedido` over MCP, toolwright against a plain
// `@modelcontextprotocol/sdk` McpServer serving the same tool with a zod schema: over stdio (a
// child process each) and over Streamable HTTP on loopback (both in this process). The client is
// the same for both (the v1 SDK client, revision 2025-11-25), so the difference is the server.
import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { listenPlain, listenToolwright } from './fixtures/mcp-servers';
import { PROBES_DIR } from './lib/paths';
import { median } from './lib/stats';
import { fixed, isCi, markdownTable, metIf, progress, ratio, writeSection } from './lib/report';

const CALLS = isCi ? 20 : 2_000;
const WARMUP = isCi ? 5 : 300;
const ROUNDS = isCi ? 1 : 5;
/** toolwright's round trip against a plain v1 `McpServer`'s, on each transport. */
const GOAL = 1.1;

/** Mean µs per sequential round trip, after a warm-up. */
async function roundTrip(client: Client): Promise<number> {
  const call = () => client.callTool({ name: 'buscar_pedido', arguments: { numero: 'A-1001' } });
  for (let i = 0; i < WARMUP; i++) await call();
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const result = await call();
    if (result.isError) throw new Error(`buscar_pedido failed: ${JSON.stringify(result.content)}`);
  }
  return ((performance.now() - started) * 1000) / CALLS;
}

async function stdio(kind: 'toolwright' | 'plain' | 'plain-v2'): Promise<number> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(PROBES_DIR, 'mcp-stdio-server.js'), kind], stderr: 'ignore' }));
  try {
    return await roundTrip(client);
  } finally {
    await client.close();
  }
}

async function overHttp(kind: 'toolwright' | 'plain'): Promise<number> {
  const server = await (kind === 'toolwright' ? listenToolwright() : listenPlain());
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(server.url));
  try {
    return await roundTrip(client);
  } finally {
    await client.close();
    await server.close();
  }
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  const goals: string[] = [];
  for (const [transport, measure] of [['stdio', stdio], ['Streamable HTTP', overHttp]] as const) {
    const ours: number[] = [];
    const plain: number[] = [];
    const plainV2: number[] = [];
    // Alternating rounds, so drift in the machine's load hits all alike.
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(await measure('plain'));
      if (measure === stdio) plainV2.push(await stdio('plain-v2'));
      ours.push(await measure('toolwright'));
      const v2 = plainV2.length > 0 ? `, plain v2 ${fixed(plainV2[round])} µs` : '';
      progress(`${transport} round ${round + 1}/${ROUNDS}: plain ${fixed(plain[round])} µs${v2}, toolwright ${fixed(ours[round])} µs`);
    }
    const v2 = plainV2.length > 0 ? [fixed(median(plainV2)), ratio(median(ours), median(plainV2))] : ['—', '—'];
    rows.push([transport, fixed(median(plain)), fixed(median(ours)), ratio(median(ours), median(plain)), ...v2]);
    goals.push(`- over ${transport}, toolwright within ${GOAL.toFixed(2)}× a plain v1 McpServer with zod: **${metIf(median(ours) / median(plain) <= GOAL)}** (${ratio(median(ours), median(plain))}).`);
  }
  const table = markdownTable(
    ['transport', 'plain McpServer (zod), µs/call', 'toolwright, µs/call', 'toolwright / plain', 'plain v2 McpServer (zod), µs/call', 'toolwright / plain v2'],
    rows,
  );
  console.log(table);
  writeSection(
    'mcp',
    [
      '## MCP tools/call round trip',
      '',
      `\`buscar_pedido\` called ${CALLS} times in a row after ${WARMUP} warm-up calls, median of ${ROUNDS} rounds; the same v1 SDK client (2025-11-25) against a plain`,
      '`@modelcontextprotocol/sdk` McpServer with a zod schema and against toolwright (`@modelcontextprotocol/server` 2.4.0, with its Host/Origin, body-limit and session checks;',
      'a plain 2025-11-25 `tools/call` answered directly, past the SDK\'s per-request context, validation and `AbortController`: see docs/mcp.md#benchmark).',
      'Over stdio also a plain McpServer of `@modelcontextprotocol/server` 2.4.0 (its `serveStdio`), the SDK toolwright serves with: the last column is what toolwright adds to that SDK.',
      '',
      table,
      '',
      'Goals:',
      '',
      ...goals,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
