import { createMcpServer, mcpHttpHandler } from '@toolwright/mcp';
import { SessionEventStore } from '../src/http/session-event-store';
import { ProbeLog, probeContainer, type Session } from './fixtures/probe-tools';
import { listen, verifier } from './support/clients';

const auth = (info: { clientId: string } | undefined): Session | undefined => (info ? { customerId: info.clientId } : undefined);
const ACCEPT = 'application/json, text/event-stream';

interface SseEvent {
  id?: string;
  retry?: string;
  data: string;
}

/** The events of an SSE body, read until the server closes it. */
async function eventsOf(response: Response): Promise<SseEvent[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const event: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        const [field, value] = [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, '')];
        if (field === 'id') event.id = value;
        else if (field === 'retry') event.retry = value;
        else if (field === 'data') event.data += value;
      }
      return event;
    });
}

function post(url: URL, token: string, sessionId: string | undefined, message: object): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2025-11-25',
      ...(sessionId && { 'mcp-session-id': sessionId }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}

function resume(url: URL, token: string, sessionId: string, lastEventId: string): Promise<Response> {
  return fetch(url, {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${token}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', 'last-event-id': lastEventId },
  });
}

async function openSession(url: URL, token: string): Promise<string> {
  const init = await post(url, token, undefined, { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  await init.text();
  const id = init.headers.get('mcp-session-id')!;
  await (await post(url, token, id, { method: 'notifications/initialized' })).text();
  return id;
}

const slowCall = { id: 7, method: 'tools/call', params: { name: 'probe_read', arguments: { label: 'slow', ms: 400 } } };

describe('resumable streams over Streamable HTTP (SEP-1699)', () => {
  const server = createMcpServer(probeContainer(new ProbeLog()), { name: 'probe', version: '1.0.0', auth });
  let http1: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    http1 = await listen(server, { verifier, resumability: { retryMs: 20, closeCallStreamsAfterMs: 100 } });
  });
  afterAll(async () => {
    await http1.close();
    expect(http1.rejected).toEqual([]);
  });

  it('starts each stream with a priming event, closes a long call\'s stream, and gives the answer to the client that reconnects with Last-Event-ID', async () => {
    const session = await openSession(http1.url, 't-ana');
    const first = await eventsOf(await post(http1.url, 't-ana', session, slowCall));
    expect(first).toEqual([{ id: expect.any(String), retry: '20', data: '' }]);

    await new Promise((resolve) => setTimeout(resolve, 450));
    const resumed = await eventsOf(await resume(http1.url, 't-ana', session, first[0].id!));
    const answer = resumed.map((e) => JSON.parse(e.data)).find((m) => m.id === 7);
    expect(answer.result.structuredContent).toEqual({ label: 'slow' });
  });

  it('gives another principal nothing for a Last-Event-ID: 404 on the session, 400 on a session of its own', async () => {
    const session = await openSession(http1.url, 't-ana');
    const [priming] = await eventsOf(await post(http1.url, 't-ana', session, slowCall));
    await new Promise((resolve) => setTimeout(resolve, 450));

    const onAnas = await resume(http1.url, 't-bruno', session, priming.id!);
    expect(onAnas.status).toBe(404);
    expect(await onAnas.text()).not.toContain('slow');

    const brunos = await openSession(http1.url, 't-bruno');
    const onHis = await resume(http1.url, 't-bruno', brunos, priming.id!);
    expect(onHis.status).toBe(400);
    expect(await onHis.text()).not.toContain('slow');

    // Ana still gets her answer.
    const resumed = await eventsOf(await resume(http1.url, 't-ana', session, priming.id!));
    expect(resumed.map((e) => JSON.parse(e.data)).find((m) => m.id === 7)?.result.structuredContent).toEqual({ label: 'slow' });
  });

  it('keeps a session whose only activity is a call with its stream closed: idle means no request and no call', async () => {
    const idle = await listen(createMcpServer(probeContainer(new ProbeLog()), { name: 'probe', version: '1.0.0', auth }), {
      verifier,
      idleTimeoutMs: 250,
      resumability: { retryMs: 20, closeCallStreamsAfterMs: 50 },
    });
    try {
      const session = await openSession(idle.url, 't-ana');
      const slow = { id: 8, method: 'tools/call', params: { name: 'probe_read', arguments: { label: 'slow', ms: 500 } } };
      const [priming] = await eventsOf(await post(idle.url, 't-ana', session, slow));
      // No request is open from here (the stream closed at 50 ms) until the client comes back at
      // about 450 ms: past one idle timeout, with the call still running (it ends at 500 ms, and the
      // resumed stream then carries its answer).
      await new Promise((resolve) => setTimeout(resolve, 400));
      const resumed = await eventsOf(await resume(idle.url, 't-ana', session, priming.id!));
      expect(resumed.filter((e) => e.data !== '').map((e) => JSON.parse(e.data)).find((m) => m.id === 8)?.result.structuredContent).toEqual({ label: 'slow' });
    } finally {
      await idle.close();
    }
  });

  it('sends no priming event with resumability off, and answers a short call on its own stream', async () => {
    const plain = await listen(server, { verifier, resumability: false });
    try {
      const session = await openSession(plain.url, 't-ana');
      const events = await eventsOf(await post(plain.url, 't-ana', session, { id: 1, method: 'tools/call', params: { name: 'probe_read', arguments: { label: 'quick', ms: 0 } } }));
      expect(events.map((e) => e.id)).toEqual([undefined]);
      expect(JSON.parse(events[0].data).result.structuredContent).toEqual({ label: 'quick' });
    } finally {
      await plain.close();
    }
  });

  it('refuses resumability bounds that are not positive integers', () => {
    expect(() => mcpHttpHandler(server, { resumability: { maxEvents: 0 } })).toThrow(/resumability\.maxEvents must be a positive integer, got 0/);
  });
});

describe('SessionEventStore', () => {
  const message = (n: number, size = 0) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n, pad: 'x'.repeat(size) } });

  it('keeps at most maxEvents and maxBytes, newest first, and one oversized event alone', async () => {
    const store = new SessionEventStore({ maxEvents: 3, maxBytes: 400 });
    for (let n = 0; n < 10; n++) await store.storeEvent('s', message(n));
    expect(store.size).toBe(3);
    await store.storeEvent('s', message(10, 300));
    expect(store.size).toBe(1);
    await store.storeEvent('s', message(11, 1000));
    expect(store.size).toBe(1);
  });

  it('replays only the events of the same stream after the given id, and refuses an id it does not keep', async () => {
    const store = new SessionEventStore({ maxEvents: 10, maxBytes: 10_000 });
    const a1 = await store.storeEvent('a', message(1));
    await store.storeEvent('b', message(2));
    const a3 = await store.storeEvent('a', message(3));
    const sent: Array<[string, unknown]> = [];
    await expect(store.replayEventsAfter(a1, { send: async (id, m) => void sent.push([id, m]) })).resolves.toBe('a');
    expect(sent).toEqual([[a3, message(3)]]);
    expect(await store.getStreamIdForEventId('999')).toBeUndefined();
    await expect(store.replayEventsAfter('999', { send: async () => undefined })).rejects.toThrow(/no event "999"/);
  });
});
