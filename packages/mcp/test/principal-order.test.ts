import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ToolContainer } from '@toolwright/core';
import { createMcpServer, mcpHttpHandler, type AuthInfo } from '@toolwright/mcp';
import { ProbeLog, ProbeTools, probeContainer, probeManifest, silentLogger, type Session } from './fixtures/probe-tools';
import { RecordingLogger, httpClient, listen, releasingAfter, until } from './support/clients';
import { probeAuth } from './support/probe-suite';

// mcpHttpHandler's `principal` option says who a request speaks for: the Nest mount sets every
// request's AuthInfo to one shared client id and passes the guards' identity this way. On
// 2026-07-28 it is what keys the call order and binds the approval state, as it binds sessions on
// 2025-11-25: users the option tells apart do not wait for each other, nor use each other's approvals.

/** A server behind mcpHttpHandler whose every request has the same AuthInfo client id, the user (x-user) in `extra`. */
async function serveSharedClientId(tools: ToolContainer<any>) {
  const handler = mcpHttpHandler(createMcpServer(tools, { name: 'probe', version: '1.0.0' }), {
    logger: new RecordingLogger(),
    principal: (info) => String((info?.extra as { user?: string } | undefined)?.user),
  });
  const server = http.createServer((req, res) => {
    (req as { auth?: AuthInfo }).auth = { token: 'x', clientId: 'shared', scopes: [], extra: { user: String(req.headers['x-user']) } };
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function connect(url: URL, user: string, options: { forms?: boolean; fetch?: typeof fetch } = {}) {
  const client = new Client({ name: user, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(options.forms && { capabilities: { elicitation: { form: {} } } }) });
  if (options.forms) client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { approve: true } }));
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-user': user } }, ...(options.fetch && { fetch: options.fetch }) }));
  return client;
}

describe('the principal option on 2026-07-28', () => {
  it("does not make one user's calls wait for another user's write when the principal option tells them apart", async () => {
    const log = new ProbeLog();
    const served = await serveSharedClientId(probeContainer(log));
    const [ana, bruno] = [await connect(served.url, 'ana'), await connect(served.url, 'bruno')];
    try {
      // Ana's write stays open until Bruno's read is answered.
      const release = log.hold('ana-write');
      const write = ana.callTool({ name: 'probe_write', arguments: { label: 'ana-write', ms: 0 } });
      await until(() => log.spans.has('ana-write'));
      await releasingAfter(release, () => bruno.callTool({ name: 'probe_read', arguments: { label: 'bruno-read', ms: 0 } }));
      await write;
      // Bruno's read ran while Ana's write did, as it does for two tokens of their own (modern-revision.test.ts).
      expect(log.spans.get('bruno-read')!.start).toBeLessThan(log.spans.get('ana-write')!.end!);
    } finally {
      await Promise.all([ana.close(), bruno.close()]);
      await served.close();
    }
  });

  it("still orders one user's calls across their clients: a read after that user's write waits for it", async () => {
    const log = new ProbeLog();
    const served = await serveSharedClientId(probeContainer(log));
    const [phone, laptop] = [await connect(served.url, 'ana'), await connect(served.url, 'ana')];
    try {
      const write = phone.callTool({ name: 'probe_write', arguments: { label: 'ana-phone-write', ms: 300 } });
      await until(() => log.spans.has('ana-phone-write'));
      await laptop.callTool({ name: 'probe_read', arguments: { label: 'ana-laptop-read', ms: 0 } });
      await write;
      expect(log.spans.get('ana-laptop-read')!.start).toBeGreaterThanOrEqual(log.spans.get('ana-phone-write')!.end!);
    } finally {
      await Promise.all([phone.close(), laptop.close()]);
      await served.close();
    }
  });

  it("does not let another user run a write with the approval one user gave (the same client id, another principal)", async () => {
    const log = new ProbeLog();
    const tools = new ToolContainer<Session | undefined>({ manifest: probeManifest, providers: [new ProbeTools(log)], logger: silentLogger, approval: 'writes' });
    const served = await serveSharedClientId(tools);
    // Ana says yes to the form; her approved retry is kept by the test, not sent.
    let retry: { headers: Headers; body: string } | undefined;
    const holding = async (input: string | URL | Request, init?: RequestInit) => {
      if (init?.method === 'POST' && typeof init.body === 'string' && init.body.includes('"requestState"')) {
        retry = { headers: new Headers(init.headers), body: init.body };
        return new Response('held by the test', { status: 503 });
      }
      return fetch(input, init);
    };
    const ana = await connect(served.url, 'ana', { forms: true, fetch: holding as typeof fetch });
    try {
      await expect(ana.callTool({ name: 'probe_write', arguments: { label: 'ana-approved', ms: 0 } })).rejects.toThrow();
      expect(retry).toBeDefined();
      const send = async (user: string) => {
        const headers = new Headers(retry!.headers);
        headers.set('x-user', user);
        return (await fetch(served.url, { method: 'POST', headers, body: retry!.body })).text();
      };
      expect(await send('bruno')).toMatch(/Invalid or expired requestState/);
      expect(log.spans.has('ana-approved')).toBe(false);
      // The same retry from Ana runs it: the refusal was Bruno's.
      await send('ana');
      expect(log.spans.has('ana-approved')).toBe(true);
    } finally {
      await ana.close();
      await served.close();
    }
  });
});

// Without credentials nothing tells two callers apart (a header or an address could be anyone's),
// so every anonymous 2026-07-28 request speaks for one principal: one call order and one read cap
// for all of them. docs/mcp.md says so, and what to do instead.
describe('anonymous callers', () => {
  it("on 2026-07-28 are one principal: one anonymous client's read waits for another's write", async () => {
    const log = new ProbeLog();
    const served = await listen(createMcpServer(probeContainer(log), { name: 'probe', version: '1.0.0', auth: probeAuth }), {});
    const pinned = async () => {
      const client = new Client({ name: 'anonymous', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(served.url));
      return client;
    };
    const [first, second] = [await pinned(), await pinned()];
    try {
      const release = log.hold('first-write');
      const write = first.callTool({ name: 'probe_write', arguments: { label: 'first-write', ms: 0 } });
      await until(() => log.spans.has('first-write'));
      let read!: Promise<unknown>;
      // Released however the check ends: a write held for ever would hang the test, not fail it.
      await releasingAfter(release, async () => {
        read = second.callTool({ name: 'probe_read', arguments: { label: 'second-read', ms: 0 } });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(log.spans.has('second-read')).toBe(false);
      });
      await Promise.all([write, read]);
      expect(log.spans.get('second-read')!.start).toBeGreaterThan(log.spans.get('first-write')!.end!);
    } finally {
      await Promise.all([first.close(), second.close()]);
      await served.close();
    }
  });

  it("on 2025-11-25 have a session each, so an order each: one session's read runs beside another's write", async () => {
    const log = new ProbeLog();
    const served = await listen(createMcpServer(probeContainer(log), { name: 'probe', version: '1.0.0', auth: probeAuth }), {});
    const [first, second] = [await httpClient(served.url), await httpClient(served.url)];
    try {
      const release = log.hold('first-write');
      const write = first.callTool({ name: 'probe_write', arguments: { label: 'first-write', ms: 0 } });
      await until(() => log.spans.has('first-write'));
      await releasingAfter(release, () => second.callTool({ name: 'probe_read', arguments: { label: 'second-read', ms: 0 } }));
      await write;
      expect(log.spans.get('second-read')!.start).toBeLessThan(log.spans.get('first-write')!.end!);
    } finally {
      await Promise.all([first.close(), second.close()]);
      await served.close();
    }
  });
});
