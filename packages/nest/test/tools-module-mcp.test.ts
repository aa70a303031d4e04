import 'reflect-metadata';
import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext, type INestApplication } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolsModule, type ToolsMcpOptions } from '@toolwright/nest';
import { OrdersModule, OrdersRepository, ordersManifest } from './fixtures/orders';

/** The app's own authentication: a bearer token → `request.user`, as a JWT guard would do. */
@Injectable()
class BearerGuard implements CanActivate {
  static readonly users: Record<string, string> = { 't-ana': 'c-ana', 't-bruno': 'c-bruno' };
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; user?: unknown }>();
    const customerId = BearerGuard.users[request.headers.authorization?.replace(/^Bearer /, '') ?? ''];
    if (!customerId) throw new UnauthorizedException('send a valid bearer token');
    request.user = { customerId };
    return true;
  }
}

describe('ToolsModule.forRoot({ mcp: { path } })', () => {
  let app: INestApplication;
  let url: URL;
  const clients: Client[] = [];

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'nest-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolsModule.forRoot({ manifest: ordersManifest, mcp: { path: '/mcp', name: 'orders' } }), OrdersModule],
      providers: [{ provide: APP_GUARD, useClass: BearerGuard }],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    url = new URL(`${await app.getUrl()}/mcp`.replace('[::1]', '127.0.0.1'));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
  });

  it('serves the discovered tools over Streamable HTTP at the path', async () => {
    const client = await connect('t-ana');
    expect(client.getServerVersion()).toMatchObject({ name: 'orders' });
    expect((await client.listTools()).tools.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
      ['buscar_pedido', true],
      ['cancelar_pedido', false],
      ['relatorio_diario', true],
    ]);
    await expect(client.callTool({ name: 'buscar_pedido', arguments: { numero: 'A-1001' } })).resolves.toEqual({
      content: [{ type: 'text', text: '{"status":"enviado","previsao":"2026-10-20"}' }],
      structuredContent: { status: 'enviado', previsao: '2026-10-20' },
    });
  });

  it("sits behind the app's guards: no valid token, no session", async () => {
    await expect(connect('t-mallory')).rejects.toThrow(/401|Unauthorized/);
  });

  it('gives tools the user the guard authenticated as ctx.auth', async () => {
    const bruno = await connect('t-bruno');
    await expect(bruno.callTool({ name: 'cancelar_pedido', arguments: { numero: 'A-1001' } })).resolves.toEqual({
      content: [{ type: 'text', text: 'pedido A-1001 não encontrado entre os pedidos do cliente' }],
      isError: true,
    });
    const ana = await connect('t-ana');
    await expect(ana.callTool({ name: 'cancelar_pedido', arguments: { numero: 'A-1001' } })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'pedido A-1001 cancelado' }],
    });
    expect((await app.get(OrdersRepository).find('A-1001'))?.status).toBe('cancelado');
  });
});

describe('ToolsModule.forRoot({ mcp: { http } }): the HTTP protections of a deployed app', () => {
  const apps: INestApplication[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  async function start(mcp: ToolsMcpOptions): Promise<INestApplication> {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolsModule.forRoot({ manifest: ordersManifest, mcp }), OrdersModule],
      providers: [{ provide: APP_GUARD, useClass: BearerGuard }],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    apps.push(app);
    await app.listen(0, '127.0.0.1');
    return app;
  }

  /** An `initialize` sent to the app's port under the host name a client behind DNS would use. */
  async function initializeAs(app: INestApplication, host: string): Promise<{ status: number; body: string }> {
    const { port } = new URL(await app.getUrl());
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host, authorization: 'Bearer t-ana', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject).end(body);
    });
  }

  it('serves only the loopback names by default, and the names listed in http.allowedHosts', async () => {
    const loopbackOnly = await start({ path: '/mcp' });
    await expect(initializeAs(loopbackOnly, 'tools.example.com')).resolves.toMatchObject({ status: 403, body: expect.stringContaining('allowedHosts') });
    const deployed = await start({ path: '/mcp', http: { allowedHosts: ['tools.example.com'] } });
    await expect(initializeAs(deployed, 'tools.example.com')).resolves.toMatchObject({ status: 200, body: expect.stringContaining('"protocolVersion"') });
    await expect(initializeAs(deployed, 'evil.example.net')).resolves.toMatchObject({ status: 403 });
  });

  it('fails app.init() on an option the handler refuses, naming it', async () => {
    await expect(start({ path: '/mcp', http: { maxBodyBytes: 0 } })).rejects.toThrow(/maxBodyBytes must be a positive integer/);
  });
});
