import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ctx, Tool, ToolContainer, defineToolManifest, type ToolContext } from '@toolwright/core';
import { createMcpServer, mcpHttpHandler } from '@toolwright/mcp';
import { silentLogger } from './fixtures/probe-tools';
import { RecordingLogger } from './support/clients';

// An SSE stream written faster than the client reads waits for 'drain' (or 'close') after each
// event the socket could not take at once. Those waits must leave no listener behind (a long
// stream would pile them up: a leak and a MaxListenersExceededWarning), and a client that goes
// away mid-wait must still end the handler's request.

const PAD = 'x'.repeat(128 * 1024);

class FloodTools {
  /** Reports progress many times with a large message, as an export reporting each page would. */
  @Tool({ effect: 'read' })
  async flood(@Ctx() ctx: ToolContext): Promise<string> {
    for (let i = 0; i < 40; i++) await ctx.progress(i, 40, PAD);
    return 'done';
  }
}

const manifest = defineToolManifest([
  {
    provider: FloodTools,
    method: 'flood',
    definition: { name: 'flood', description: 'Reports progress.', input_schema: { type: 'object', properties: {}, additionalProperties: false } },
    effect: 'read',
    inputClass: class FloodInput {},
    parameters: [{ kind: 'ctx' }],
  },
]);

/** A 2025-11-25 session opened as a raw client opens it: the headers its requests then carry. */
async function openSession(url: URL): Promise<Record<string, string>> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  const init = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });
  await init.text();
  const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')! };
  await (await fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return session;
}

describe('SSE under backpressure', () => {
  it("leaves no 'close' listener behind per SSE event written under backpressure", async () => {
    const handler = mcpHttpHandler(createMcpServer(new ToolContainer({ manifest, providers: [new FloodTools()], logger: silentLogger }), { name: 'flood', version: '1.0.0' }), {
      logger: new RecordingLogger(),
    });
    // The 'close' listeners on each response when it finished, and each warning the process emitted.
    const closeListeners: number[] = [];
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const server = http.createServer((req, res) => {
      res.on('finish', () => closeListeners.push(res.listenerCount('close')));
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    try {
      const session = await openSession(url);
      const baseline = closeListeners.at(-1)!;

      const call = await fetch(url, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'flood', arguments: {}, _meta: { progressToken: 'p' } } }),
      });
      expect(await call.text()).toContain('"id":1');
      // The streamed answer ends with no more listeners than a plain answer has.
      expect(closeListeners.at(-1)! - baseline).toBeLessThanOrEqual(1);
      expect(warnings.filter((w) => /MaxListenersExceeded/.test(w))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  it('ends the request when the client goes away while a stream waits for drain', async () => {
    const handler = mcpHttpHandler(createMcpServer(new ToolContainer({ manifest, providers: [new FloodTools()], logger: silentLogger }), { name: 'flood', version: '1.0.0' }), {
      logger: new RecordingLogger(),
    });
    const served: Promise<void>[] = [];
    const blocked: http.ServerResponse[] = [];
    const server = http.createServer((req, res) => {
      // A write the socket could not take: the stream now waits for 'drain'.
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      res.write = ((...args: unknown[]) => {
        const ok = write(...args);
        if (!ok) blocked.push(res);
        return ok;
      }) as typeof res.write;
      served.push(handler(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    try {
      const session = await openSession(url);
      await Promise.all(served.splice(0));

      // A client that never reads its stream, then hangs up.
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'flood', arguments: {}, _meta: { progressToken: 'p' } } });
      const request = http.request(url, { method: 'POST', headers: session });
      request.on('response', (response) => response.pause());
      request.on('error', () => undefined);
      request.end(body);
      // Until the socket stops taking writes: the stream waits for a 'drain' that will not come.
      let stuck = 0;
      for (let i = 0; i < 500 && stuck < 10; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        stuck = blocked[0]?.writableNeedDrain ? stuck + 1 : 0;
      }
      expect(blocked[0]?.writableNeedDrain).toBe(true);
      request.destroy();
      const ended = await Promise.race([Promise.all(served).then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 2000, 'still waiting'))]);
      expect(ended).toBe('ended');
      expect(blocked[0].listenerCount('drain')).toBe(0);
    } finally {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
