import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { toolManifest } from '../../examples/src/tools.generated';
import { textOf, until } from './support/clients';

// The entry point a desktop client launches, built by `pnpm build` (which `pnpm test` runs first).
const MAIN = path.resolve(__dirname, '../../examples/dist/mcp/main.js');

async function launch(customerId?: string, latencyMs = 0): Promise<Client> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`pnpm build\` first.`);
  const env = { ...getDefaultEnvironment(), TOOLWRIGHT_LATENCY_MS: String(latencyMs), ...(customerId && { TOOLWRIGHT_CUSTOMER_ID: customerId }) };
  const client = new Client({ name: 'toolwright-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN], env, stderr: 'pipe' }));
  return client;
}

describe('stdio: the examples MCP server as a child process', () => {
  let ana: Client;
  let nobody: Client;

  beforeAll(async () => {
    [ana, nobody] = await Promise.all([launch('C-ana'), launch()]);
  });
  afterAll(async () => {
    await Promise.all([ana?.close(), nobody?.close()]);
  });

  it('lists the manifest tools: same input schema, title, annotations, output schema from the return type', async () => {
    const { tools } = await ana.listTools();
    const manifest = Object.fromEntries(toolManifest.entries.map((e) => [e.definition.name, e]));
    expect(tools.map((t) => t.name)).toEqual(['buscar_pedido', 'cancelar_pedido']);
    for (const tool of tools) {
      expect(tool.inputSchema).toEqual(manifest[tool.name].definition.input_schema);
      expect(tool.description).toBe(manifest[tool.name].definition.description);
      expect(tool.outputSchema).toEqual(manifest[tool.name].outputSchema);
    }
    expect(tools[0]).toMatchObject({ title: 'Buscar pedido', annotations: { readOnlyHint: true, openWorldHint: false } });
    expect(tools[1]).toMatchObject({
      title: 'Cancelar pedido',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });
  });

  it('answers a read with structuredContent that satisfies the output schema', async () => {
    const { tools } = await ana.listTools();
    const result = await ana.callTool({ name: 'buscar_pedido', arguments: { numero: 'A-1001' } });
    expect(result.structuredContent).toEqual({ status: 'enviado', previsao: '2026-10-20' });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    const validate = new Ajv({ strict: false }).compile(tools[0].outputSchema!);
    expect(validate(result.structuredContent)).toBe(true);
  });

  it('refuses invalid input and reports tool errors as isError results', async () => {
    const invalid = await ana.callTool({ name: 'buscar_pedido', arguments: { numero: '1001' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/^Invalid input for buscar_pedido:\n.*numero/);
    const missing = await ana.callTool({ name: 'buscar_pedido', arguments: { numero: 'A-9999' } });
    expect(missing).toEqual({ content: [{ type: 'text', text: 'pedido A-9999 não encontrado' }], isError: true });
  });

  it('runs the write guard on the launching customer: refused without one and for another customer, done for the owner', async () => {
    const refused = { content: [{ type: 'text', text: 'Not allowed: cancelar_pedido refused this call.' }], isError: true };
    await expect(nobody.callTool({ name: 'cancelar_pedido', arguments: { numero: 'A-1001' } })).resolves.toEqual(refused);
    await expect(ana.callTool({ name: 'cancelar_pedido', arguments: { numero: 'A-1002' } })).resolves.toEqual(refused);
    const done = await ana.callTool({ name: 'cancelar_pedido', arguments: { numero: 'A-1001' } });
    expect(done.structuredContent).toEqual({ numero: 'A-1001', status: 'cancelado', canceladoPor: 'C-ana' });
    await expect(ana.callTool({ name: 'buscar_pedido', arguments: { numero: 'A-1001' } })).resolves.toMatchObject({ structuredContent: { status: 'cancelado' } });
  });

  it('cancels a write in flight on notifications/cancelled: its ctx.signal aborts and the method never runs', async () => {
    // 200 ms per database access: the guard's lookup is still pending when the client cancels.
    const slow = await launch('C-ana', 200);
    try {
      const controller = new AbortController();
      const pending = slow.callTool({ name: 'cancelar_pedido', arguments: { numero: 'A-1001' } }, undefined, { signal: controller.signal });
      setTimeout(() => controller.abort('the user pressed stop'), 50);
      await expect(pending).rejects.toThrow();
      const after = await slow.callTool({ name: 'buscar_pedido', arguments: { numero: 'A-1001' } });
      expect(after.structuredContent).toEqual({ status: 'enviado', previsao: '2026-10-20' });
    } finally {
      await slow.close();
    }
  });
});

/** A stdio server on raw pipes (the examples' entry point by default): what a broken or hostile client may write. */
function spawnRaw(latencyMs = 0, main = MAIN) {
  const child = spawn(process.execPath, [main], { env: { ...getDefaultEnvironment(), TOOLWRIGHT_LATENCY_MS: String(latencyMs) }, stdio: ['pipe', 'pipe', 'pipe'] });
  const messages: any[] = [];
  const notJson: string[] = [];
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      try {
        messages.push(JSON.parse(line));
      } catch {
        notJson.push(line);
      }
      buffered = buffered.slice(end + 1);
    }
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const send = (line: string) => child.stdin.write(`${line}\n`);
  send(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
  send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return { child, messages, notJson, stderr: () => stderr, exited, send };
}

describe('stdio: raw pipes', () => {
  it('survives garbage, NUL bytes and a 1 MB line, and answers the next request (every stdout line is JSON-RPC)', async () => {
    const raw = spawnRaw();
    try {
      raw.send('this is not json');
      raw.send('{"jsonrpc":"2.0","id":\u0000}');
      raw.send(`{"jsonrpc":"2.0","method":"${'x'.repeat(1024 * 1024)}"}`);
      raw.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
      await until(() => raw.messages.some((m) => m.id === 1));
      expect(raw.messages.find((m) => m.id === 1).result.tools.length).toBeGreaterThan(0);
      expect(raw.messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
      expect(raw.notJson).toEqual([]);
    } finally {
      raw.child.kill();
    }
  });

  it('exits when stdin ends, even with a call in flight', async () => {
    const raw = spawnRaw(400);
    try {
      await until(() => raw.messages.some((m) => m.id === 0));
      raw.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'buscar_pedido', arguments: { numero: 'A-1001' } } }));
      raw.child.stdin.end();
      await expect(raw.exited).resolves.toBe(0);
    } finally {
      // A server that does not exit must not outlive the test (and hold jest open).
      raw.child.kill();
    }
  });

  it('keeps stdout for the protocol when a tool writes there: console.log and process.stdout.write go to stderr', async () => {
    const raw = spawnRaw(0, path.resolve(__dirname, 'fixtures/noisy-stdio-server.js'));
    try {
      raw.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'chatty', arguments: {} } }));
      await until(() => raw.messages.some((m) => m.id === 1));
      expect(raw.messages.find((m) => m.id === 1).result.structuredContent).toEqual({ done: true });
      expect(raw.notJson).toEqual([]);
      expect(raw.messages.map((m) => m.id)).toEqual([0, 1]);
      await until(() => raw.stderr().includes('a raw process.stdout.write without a newline'));
      expect(raw.stderr()).toContain('console.log after serveStdio, before any request');
      expect(raw.stderr()).toContain('console.log from the tool');
      expect(raw.stderr()).toContain("note: 'console.info from the tool'");
    } finally {
      raw.child.kill();
    }
  });
});
