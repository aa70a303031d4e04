import 'reflect-metadata';
import { Injectable, type CanActivate, type ExecutionContext, type INestApplication } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolsModule, type ToolsMcpOptions } from '@toolwright/nest';
import { identityText } from '../src/identity-text';
import { OrdersModule, ordersManifest } from './fixtures/orders';

// An MCP session belongs to the identity the guards found: another user is answered 404 on it.
// That identity must be text no two users share, whatever shape `request.user` has: a bigint id
// (Prisma's BigInt) must not fail every request, and a class instance whose fields JSON cannot see
// must not make every user `{}`, sharing one another's sessions.

/** A user whose claims are private (`#sub`): tools read `ctx.auth.sub`, JSON.stringify sees `{}`. */
class AuthenticatedUser {
  readonly #sub: string;
  constructor(sub: string) {
    this.#sub = sub;
  }
  get sub(): string {
    return this.#sub;
  }
}

const users: Record<string, () => unknown> = {
  'Bearer t-ana': () => new AuthenticatedUser('c-ana'),
  'Bearer t-bruno': () => new AuthenticatedUser('c-bruno'),
  'Bearer t-big': () => ({ id: 1001n, customerId: 'c-big' }),
};

@Injectable()
class TokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; user?: unknown }>();
    const user = users[request.headers.authorization ?? ''];
    if (!user) return false;
    request.user = user();
    return true;
  }
}

let app: INestApplication | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await app?.close();
});

async function serve(mcp: Partial<ToolsMcpOptions>): Promise<URL> {
  const moduleRef = await Test.createTestingModule({
    imports: [ToolsModule.forRoot({ manifest: ordersManifest, mcp: { path: '/mcp', ...mcp } }), OrdersModule],
    providers: [{ provide: APP_GUARD, useClass: TokenGuard }],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return new URL(`${await app.getUrl()}/mcp`.replace('[::1]', '127.0.0.1'));
}

async function connect(url: URL, token: string) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  clients.push(client);
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: token } } });
  await client.connect(transport);
  return { client, transport };
}

function listAs(url: URL, token: string, transport: StreamableHTTPClientTransport) {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: token,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': transport.sessionId!,
      'mcp-protocol-version': transport.protocolVersion ?? '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }),
  });
}

describe('whom an MCP session belongs to, in a Nest app', () => {
  it('serves a user whose id is a bigint', async () => {
    const url = await serve({});
    const { client } = await connect(url, 'Bearer t-big');
    expect((await client.listTools()).tools).toHaveLength(3);
  });

  it('refuses a user JSON cannot tell apart (a class instance), logging what to give, instead of sharing sessions', async () => {
    const logged: string[] = [];
    const logger = { error: (...args: unknown[]) => logged.push(args.map(String).join(' ')), warn: () => undefined };
    const url = await serve({ http: { logger } });
    await expect(connect(url, 'Bearer t-ana')).rejects.toThrow();
    expect(logged.join('\n')).toContain('request.user is an instance of AuthenticatedUser, which cannot tell one user from another as text');
    expect(logged.join('\n')).toContain('mcp: { principal: (request) =>');
  });

  it('with `principal`, answers another user 404 on the session of the first', async () => {
    const url = await serve({ principal: (request) => (request.user as AuthenticatedUser).sub });
    const { transport } = await connect(url, 'Bearer t-ana');
    expect((await listAs(url, 'Bearer t-bruno', transport)).status).toBe(404);
    expect((await listAs(url, 'Bearer t-ana', transport)).status).toBe(200);
  });
});

describe('identityText', () => {
  it('is the same for one identity whatever its key order, and differs between identities that JSON would merge', () => {
    expect(identityText({ b: 1, a: { d: [1, 'x'], c: null } })).toBe(identityText({ a: { c: null, d: [1, 'x'] }, b: 1 }));
    const texts = [1001n, 1001, '1001', '1001n', { id: 1001n }, { id: '1001n' }, [1001n], null].map((v) => identityText(v));
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('refuses a class instance or a Map anywhere in the identity, naming where', () => {
    expect(() => identityText({ tenant: new Map() })).toThrow('request.user.tenant is an instance of Map');
    expect(() => identityText([{ at: new Date(0) }])).toThrow('request.user[0].at is an instance of Date');
  });
});
