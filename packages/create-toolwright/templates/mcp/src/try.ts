import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** What a desktop client does: launch the server, list its tools, call one (wrongly, then rightly). */
const client = new Client({ name: 'try', version: '0.1.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [fileURLToPath(new URL('./main.js', import.meta.url))], stderr: 'ignore' }));
try {
  const { tools } = await client.listTools();
  console.log(`tools/list: ${tools.map((tool) => tool.name).join(', ')}`);
  for (const numero of ['1001', 'A-1001']) {
    const result = await client.callTool({ name: 'orders_get_status', arguments: { numero } });
    const [first] = result.content as Array<{ type: string; text?: string }>;
    console.log(`tools/call orders_get_status ${JSON.stringify({ numero })}: ${result.isError ? 'error: ' : ''}${first?.text ?? JSON.stringify(result.content)}`);
  }
} finally {
  await client.close();
}
