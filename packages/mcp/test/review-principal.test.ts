import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpServer, mcpHttpHandler, type AuthInfo } from '@toolwright/mcp';
import { ProbeLog, probeContainer } from './fixtures/probe-tools';
import { RecordingLogger, until } from './support/clients';

// Review: mcpHttpHandler's `principal` option says who a request speaks for (the Nest mount sets
// every request's AuthInfo to clientId 'nest' and passes the guards' identity this way). Sessions
// honour it; the 2026-07-28 call order (PrincipalOrders, session-calls.ts) and the approval
// state's binding (approval-over-mcp.ts) do not: they key on principalOf(authInfo), the same for
// every user of such a server. One user's slow write then holds every other user's calls.

describe('review: the principal option on 2026-07-28', () => {
  it("does not make one user's calls wait for another user's write when the principal option tells them apart", async () => {
    const log = new ProbeLog();
    const handler = mcpHttpHandler(createMcpServer(probeContainer(log), { name: 'probe', version: '1.0.0' }), {
      logger: new RecordingLogger(),
      // As the Nest mount: one shared client id, the user in `extra`.
      principal: (info) => String((info?.extra as { user?: string } | undefined)?.user),
    });
    const server = http.createServer((req, res) => {
      (req as { auth?: AuthInfo }).auth = { token: 'x', clientId: 'shared', scopes: [], extra: { user: String(req.headers['x-user']) } };
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const connect = async (user: string) => {
      const client = new Client({ name: user, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-user': user } } }));
      return client;
    };
    const [ana, bruno] = [await connect('ana'), await connect('bruno')];
    try {
      const write = ana.callTool({ name: 'probe_write', arguments: { label: 'ana-write', ms: 600 } });
      await until(() => log.spans.has('ana-write'));
      await bruno.callTool({ name: 'probe_read', arguments: { label: 'bruno-read', ms: 0 } });
      await write;
      // Bruno's read ran while Ana's write did, as it does for two tokens of their own (modern-revision.test.ts).
      expect(log.spans.get('bruno-read')!.start).toBeLessThan(log.spans.get('ana-write')!.end!);
    } finally {
      await Promise.all([ana.close(), bruno.close()]);
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
