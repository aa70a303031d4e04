import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryRunStore } from '@toolwright/core';
import { AppModule } from '../src/nest/app.module';

describe('the NestJS example app: the same tools at /mcp', () => {
  let app: INestApplication;
  let url: URL;
  const clients: Client[] = [];

  /** `approves`: the client can show its user a form, and the user accepts. */
  async function connect(customerId?: string, approves = false): Promise<Client> {
    const client = new Client({ name: 'example-test', version: '1.0.0' }, approves ? { capabilities: { elicitation: { form: {} } } } : {});
    if (approves) client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { approve: true } }));
    const headers: Record<string, string> = customerId ? { 'x-customer-id': customerId } : {};
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    // /mcp never calls the model: the client is there because /chat needs one.
    const client = new Anthropic({ apiKey: 'unused', baseURL: 'http://127.0.0.1:9', maxRetries: 0 });
    app = await NestFactory.create(AppModule.forRoot({ client, model: 'claude-haiku-5-5', store: new InMemoryRunStore() }), { logger: false });
    await app.listen(0, '127.0.0.1');
    url = new URL(`${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/mcp`);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
  });

  it('refuses a client without the session header, like /chat', async () => {
    await expect(connect()).rejects.toThrow(/401|x-customer-id/);
  });

  it("lists the generated tools and runs the write for the signed-in customer only, once a person approves it (approval: 'writes')", async () => {
    const bruno = await connect('C-bruno');
    expect((await bruno.listTools()).tools.map((t) => t.name)).toEqual(['buscar_pedido', 'cancelar_pedido']);
    await expect(bruno.callTool({ name: 'cancelar_pedido', arguments: { numero: 'A-1001' } })).resolves.toEqual({
      content: [{ type: 'text', text: 'Not allowed: cancelar_pedido refused this call.' }],
      isError: true,
    });
    // The app's policy asks a person about every write: a client that cannot ask its user is refused, never run.
    const cannotAsk = await connect('C-ana');
    await expect(cannotAsk.callTool({ name: 'cancelar_pedido', arguments: { numero: 'A-1001' } })).resolves.toEqual({
      content: [{ type: 'text', text: "Not run: cancelar_pedido needs a person's approval, and this MCP client cannot ask its user. Approve it in the app instead." }],
      isError: true,
    });
    const ana = await connect('C-ana', true);
    await expect(ana.callTool({ name: 'cancelar_pedido', arguments: { numero: 'A-1001' } })).resolves.toMatchObject({
      structuredContent: { numero: 'A-1001', status: 'cancelado', canceladoPor: 'C-ana' },
    });
  });
});
