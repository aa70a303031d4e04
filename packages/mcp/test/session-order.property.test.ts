import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ToolEvent } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, probeContainer } from './fixtures/probe-tools';

/**
 * One session through the SDK client and server, recording the order tools/call requests reach
 * the server. An unknown tool runs no code of ours, so its span is the container's call_start
 * and call_end: it may write (nobody knows its effect), so it is logged as a write.
 */
async function session(log: ProbeLog, maxConcurrency?: number) {
  const labels = new Map<string, string>();
  const onEvent = (event: ToolEvent) => {
    if (event.effect !== 'unknown') return;
    // toolUseId is mcp_<connection id>_<JSON-RPC id>.
    const label = labels.get(event.toolUseId.split('_').at(-1)!)!;
    if (event.type === 'call_start') log.start(label, 'write');
    if (event.type === 'call_end') log.end(label);
  };
  const server = createMcpServer(probeContainer(log), { name: 'probe', version: '1.0.0', maxConcurrency, onEvent });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sdkServer = await server.connect(serverSide);
  const arrivals: string[] = [];
  const deliver = serverSide.onmessage!;
  serverSide.onmessage = (message: JSONRPCMessage, extra) => {
    if ('method' in message && message.method === 'tools/call') {
      const label = (message.params as { arguments: { label: string } }).arguments.label;
      arrivals.push(label);
      if ('id' in message) labels.set(String(message.id), label);
    }
    deliver(message, extra);
  };
  const client = new Client({ name: 'property', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, arrivals, close: () => Promise.all([client.close(), sdkServer.close()]) };
}

const TOOLS = { read: 'probe_read', write: 'probe_write', unknown: 'probe_missing' } as const;
const call = fc.record({ kind: fc.constantFrom<keyof typeof TOOLS>('read', 'read', 'write', 'unknown'), ms: fc.integer({ min: 0, max: 3 }) });

describe('per-session order over MCP (property)', () => {
  it('a write (or an unknown tool) never overlaps another call of its session, and calls around it keep their arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 8 }), async (calls) => {
        const log = new ProbeLog();
        const { client, arrivals, close } = await session(log);
        try {
          const results = await Promise.all(
            calls.map((c, i) => client.callTool({ name: TOOLS[c.kind], arguments: { label: `c${i}`, ms: c.ms } })),
          );
          results.forEach((result, i) => {
            if (calls[i].kind === 'unknown') expect(result.isError).toBe(true);
            else expect(result.structuredContent).toEqual({ label: `c${i}` });
          });
          expect([...arrivals].sort()).toEqual(calls.map((_, i) => `c${i}`).sort());
          const spans = arrivals.map((label) => ({ label, ...log.spans.get(label)! }));
          for (const [i, a] of spans.entries()) {
            for (const b of spans.slice(i + 1)) {
              // a arrived before b: if either writes, a finished before b started.
              if (a.effect === 'write' || b.effect === 'write') expect(a.end!).toBeLessThan(b.start);
            }
          }
        } finally {
          await close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('never starts a call cancelled while it waits behind a write', async () => {
    const log = new ProbeLog();
    const { client, close } = await session(log);
    try {
      const write = client.callTool({ name: 'probe_write', arguments: { label: 'slow-write', ms: 100 } });
      const controller = new AbortController();
      const queued = client.callTool({ name: 'probe_read', arguments: { label: 'queued-read', ms: 0 } }, undefined, { signal: controller.signal });
      while (!log.spans.has('slow-write')) await new Promise((resolve) => setTimeout(resolve, 1));
      controller.abort('changed my mind');
      await expect(queued).rejects.toThrow();
      await expect(write).resolves.toMatchObject({ structuredContent: { label: 'slow-write' } });
      await client.callTool({ name: 'probe_read', arguments: { label: 'next-read', ms: 0 } });
      expect([...log.spans.keys()]).toEqual(['slow-write', 'next-read']);
    } finally {
      await close();
    }
  });

  it('runs at most maxConcurrency reads of a session at once, the rest in arrival order', async () => {
    const log = new ProbeLog();
    const { client, arrivals, close } = await session(log, 2);
    try {
      await Promise.all(Array.from({ length: 6 }, (_, i) => client.callTool({ name: 'probe_read', arguments: { label: `r${i}`, ms: 10 } })));
      const spans = [...log.spans.values()];
      const widest = Math.max(...spans.map((s) => spans.filter((t) => t.start <= s.start && s.start < t.end!).length));
      expect(widest).toBe(2);
      const starts = arrivals.map((label) => log.spans.get(label)!.start);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    } finally {
      await close();
    }
  });

  it('refuses a maxConcurrency that is not a positive integer', () => {
    expect(() => createMcpServer(probeContainer(), { name: 'probe', version: '1.0.0', maxConcurrency: 0 })).toThrow(
      'createMcpServer: maxConcurrency must be a positive integer, got 0.',
    );
  });
});
