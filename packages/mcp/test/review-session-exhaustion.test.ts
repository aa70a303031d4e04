import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, probeContainer } from './fixtures/probe-tools';
import { listen } from './support/clients';

// Review: nothing bounds the 2025-11-25 sessions one client may hold open. Without a token
// (requireAuth is off by default) or with one, each `initialize` opens a session (an SDK Server,
// its transport and an event store of up to 1 MiB) that lives for idleTimeoutMs (30 minutes by
// default). On this machine 1,000 initializes took about 4 s and about 57 MB of heap: one client
// looping on initialize for a few minutes exhausts the process's memory. A fix may refuse (429/503)
// or evict the oldest idle sessions of the principal; either way the open sessions stay bounded.

const ACCEPT = 'application/json, text/event-stream';
const OPENED = 1100;

describe('review: sessions one principal can open', () => {
  it(`keeps at most 1,000 sessions open for one anonymous client that sends ${OPENED} initialize requests`, async () => {
    const server = createMcpServer(probeContainer(new ProbeLog()), { name: 'probe', version: '1.0.0' });
    const http = await listen(server, {});
    const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2025-11-25' };
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'loop', version: '1' } } });
    try {
      for (let i = 0; i < OPENED; i++) await (await fetch(http.url, { method: 'POST', headers, body: initialize })).text();
      // The SDK servers still open (McpToolServer keeps each until its session closes).
      expect((server as unknown as { sessions: Set<unknown> }).sessions.size).toBeLessThanOrEqual(1000);
    } finally {
      await http.close();
    }
  }, 60_000);
});
