import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, probeContainer } from './fixtures/probe-tools';
import { listen, until, verifier } from './support/clients';
import { probeAuth as auth } from './support/probe-suite';

// A cancelled request gets no response (the protocol says so), and the transport ends a POST's
// stream only once every request on it has one: without more, the stream of a cancelled call
// stayed open for ever (keep-alive pings and all), and its session, counting it as a request
// open, never idled out. The official v1 client keeps that stream open after it cancels.
const ACCEPT = 'application/json, text/event-stream';

function rpc(url: URL, sessionId: string, message: object) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: 'Bearer t-ana', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}

async function openSession(url: URL): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: 'Bearer t-ana' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });
  await init.text();
  const id = init.headers.get('mcp-session-id')!;
  await (await rpc(url, id, { method: 'notifications/initialized' })).text();
  return id;
}

describe('a call cancelled with notifications/cancelled on 2025-11-25', () => {
  // A plain call is answered directly; one with other _meta goes through the SDK's handler.
  for (const [path, meta] of [
    ['answered directly', {}],
    ["through the SDK's handler", { _meta: { 'x-route': 'sdk' } }],
  ] as const) {
    it(`ends its POST stream without a response, and the session then idles out (${path})`, async () => {
      const log = new ProbeLog();
      const h = await listen(createMcpServer(probeContainer(log), { name: 'probe', version: '1.0.0', auth }), { verifier, idleTimeoutMs: 300 });
      try {
        const id = await openSession(h.url);
        const call = await rpc(h.url, id, { id: 5, method: 'tools/call', params: { name: 'wait_for_cancel', arguments: {}, ...meta } });
        const body = call.text();
        await until(() => log.started.length === 1);
        await (await rpc(h.url, id, { method: 'notifications/cancelled', params: { requestId: 5, reason: 'user' } })).text();
        await until(() => log.cancelled.length === 1);
        const ended = await Promise.race([body, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 1500))]);
        expect(ended).not.toBe('still open');
        expect(ended).not.toMatch(/"id":5/);
        // Nothing open and nothing running: after the idle timeout the session is gone.
        await new Promise((resolve) => setTimeout(resolve, 900));
        const later = await rpc(h.url, id, { id: 6, method: 'tools/list' });
        await later.text();
        expect(later.status).toBe(404);
        expect(h.logger.lines).toEqual([]);
      } finally {
        await h.close();
      }
    });
  }

  it('leaves the stream of a call it does not name open until that call is answered', async () => {
    const log = new ProbeLog();
    const h = await listen(createMcpServer(probeContainer(log), { name: 'probe', version: '1.0.0', auth }), { verifier });
    try {
      const id = await openSession(h.url);
      const release = log.hold('slow');
      const call = await rpc(h.url, id, { id: 7, method: 'tools/call', params: { name: 'probe_read', arguments: { label: 'slow', ms: 0 } } });
      const body = call.text();
      await until(() => log.spans.has('slow'));
      await (await rpc(h.url, id, { method: 'notifications/cancelled', params: { requestId: 99, reason: 'not this one' } })).text();
      release();
      expect(await body).toMatch(/"id":7,"result":\{.*"label":"slow"/s);
    } finally {
      await h.close();
    }
  });
});
