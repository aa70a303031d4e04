import fc from 'fast-check';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { IsString } from 'class-validator';
import { Ctx, Param, Tool, ToolContainer, defineToolManifest, type ToolContext } from '@toolwright/core';
import type { Server, Transport } from '@modelcontextprotocol/server';
import { createMcpServer, McpToolServer } from '@toolwright/mcp';
import { DirectCalls } from '../src/direct-calls';
import type { SessionLogLevel } from '../src/log-level';
import { ProbeLog, ProbeTools, probeManifest, silentLogger } from './fixtures/probe-tools';

/** A tool that uses everything a call's client offers: log messages at four levels, and progress. */
class ChattyTools {
  @Tool({ effect: 'read' })
  async chatty(@Param() text: string, @Ctx() ctx: ToolContext): Promise<{ text: string; id: string }> {
    for (const level of ['debug', 'info', 'warning', 'error'] as const) await ctx.log(level, `${level}: ${text}`);
    await ctx.progress(1, 2, 'half');
    await ctx.progress(2, 2);
    return { text, id: ctx.toolUseId };
  }
}

class ChattyInput {
  @IsString() text!: string;
}

const manifest = defineToolManifest([
  ...probeManifest.entries,
  {
    provider: ChattyTools,
    method: 'chatty',
    definition: { name: 'chatty', description: 'Logs and reports progress.', input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } },
    effect: 'read',
    inputClass: ChattyInput,
    parameters: [{ kind: 'param', property: 'text' }, { kind: 'ctx' }],
    outputSchema: { type: 'object', properties: { text: { type: 'string' }, id: { type: 'string' } }, required: ['text', 'id'] },
  },
]);

/** A `_meta` key the SDK passes over and `DirectCalls` does not know: the call then goes through the SDK's handler. */
const THROUGH_SDK = 'io.toolwright.test/through-sdk';

/**
 * A raw JSON-RPC session with the server over an in-memory transport: `request` sends one request
 * and gives what the client received from then until its response; `send` sends without waiting.
 */
async function rawSession(log = new ProbeLog(), { initialize = true } = {}) {
  const container = new ToolContainer({ manifest, providers: [new ProbeTools(log), new ChattyTools()], logger: silentLogger });
  const server = createMcpServer(container, { name: 'direct', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sdkServer = await server.connect(serverSide);
  const received: JSONRPCMessage[] = [];
  const waiting = new Map<number, () => void>();
  clientSide.onmessage = (message) => {
    received.push(message);
    if ('id' in message && !('method' in message)) waiting.get(message.id as number)?.();
  };
  await clientSide.start();
  const send = (message: object) => clientSide.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  /** Resolves when the response to `id` has arrived. */
  const response = (id: number) => new Promise<void>((resolve) => waiting.set(id, resolve));
  const request = async (id: number, method: string, params: unknown): Promise<JSONRPCMessage[]> => {
    const from = received.length;
    const answered = response(id);
    await send({ id, method, params });
    await answered;
    return received.slice(from);
  };
  if (initialize) {
    await request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } });
    await send({ method: 'notifications/initialized' });
  }
  return { request, send, response, received, sdkServer, close: () => Promise.all([clientSide.close(), sdkServer.close()]) };
}

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
const json = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }));
const args = fc.oneof(
  fc.record({ text: fc.string() }),
  fc.record({ label: fc.string(), ms: fc.integer({ min: -1, max: 2 }) }),
  fc.record({ numero: fc.constantFrom('A-1001', 'nope') }),
  fc.dictionary(fc.constantFrom('text', 'label', 'ms', 'numero', 'extra'), json, { maxKeys: 3 }),
  fc.constant(undefined),
  // Not an object: the SDK refuses the request; neither path runs it.
  fc.constantFrom<unknown>([], 'text', null, 7),
);
const progressToken = fc.option(fc.oneof(fc.string({ minLength: 1 }), fc.integer()), { nil: undefined });
const step = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('setLevel' as const), level: fc.constantFrom(...LEVELS) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('call' as const), name: fc.constant<unknown>('chatty'), args: fc.record({ text: fc.string() }) as fc.Arbitrary<unknown>, progressToken, extra: fc.constant(false), traceparent: fc.constant(undefined) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      // An unknown name, and a name that is not a string (refused by the SDK).
      name: fc.constantFrom<unknown>('chatty', 'probe_read', 'probe_write', 'refund', 'catalog', 'no_such_tool', 42),
      args,
      progressToken,
      // A params key a direct answer does not know: the call goes to the SDK's handler, which passes over it.
      extra: fc.boolean(),
      traceparent: fc.option(fc.constant('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'), { nil: undefined }),
    }),
  },
);

/** The `ctx.toolUseId` of JSON-RPC request `id` on a 2025-11-25 connection. */
const toolUseIdOf = (id: number) => expect.stringMatching(new RegExp(`^mcp_[0-9a-f-]{36}_${id}$`));

/** What a valid `chatty` call sends: the log messages at or above the level set, progress when asked for, the result. */
function chattyMessages(connectionId: string, id: number, text: string, level: number, progressToken: string | number | undefined): JSONRPCMessage[] {
  const logs = (['debug', 'info', 'warning', 'error'] as const)
    .filter((l) => LEVELS.indexOf(l) >= level)
    .map((l) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: l, data: `${l}: ${text}` } }));
  const progress =
    progressToken === undefined
      ? []
      : [
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: 1, total: 2, message: 'half' } },
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: 2, total: 2 } },
        ];
  // The JSON-RPC id on this connection (the server's random connection id).
  const value = { text, id: `mcp_${connectionId}_${id}` };
  const result = { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  return [...logs, ...progress, { jsonrpc: '2.0', id, result }] as JSONRPCMessage[];
}

describe('tools/call answered directly', () => {
  it('answers every call exactly as the SDK handler does: result, error, log messages at the level set, progress', async () => {
    const direct = jest.spyOn(McpToolServer.prototype as never as { answerDirect: () => unknown }, 'answerDirect');
    const throughSdk = jest.spyOn(McpToolServer.prototype as never as { answerThroughSdk: () => unknown }, 'answerThroughSdk');
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
          const session = await rawSession();
          try {
            let id = 1;
            let level = 0;
            for (const s of steps) {
              if (s.kind === 'setLevel') {
                await session.request(id++, 'logging/setLevel', { level: s.level });
                level = LEVELS.indexOf(s.level);
                continue;
              }
              const meta = { ...(s.progressToken !== undefined && { progressToken: s.progressToken }), ...(s.traceparent && { traceparent: s.traceparent }) };
              const params = { name: s.name, ...(s.args !== undefined && { arguments: s.args }), ...(Object.keys(meta).length > 0 && { _meta: meta }), ...(s.extra && { 'x-extra': 1 }) };
              direct.mockClear();
              throughSdk.mockClear();
              // The same id both times: the tool sees the same toolUseId.
              const plain = await session.request(id, 'tools/call', params);
              const viaSdk = await session.request(id, 'tools/call', { ...params, _meta: { ...meta, [THROUGH_SDK]: true } });
              id++;
              expect(plain).toEqual(viaSdk);
              const wellFormed = typeof s.name === 'string' && (s.args === undefined || (typeof s.args === 'object' && s.args !== null && !Array.isArray(s.args)));
              if (wellFormed && s.name === 'chatty' && typeof (s.args as { text?: unknown } | undefined)?.text === 'string' && Object.keys(s.args!).length === 1) {
                expect(plain).toEqual(chattyMessages((session.sdkServer as unknown as { connectionId: string }).connectionId, id - 1, (s.args as { text: string }).text, level, s.progressToken));
              }
              // A well-formed call took each path once (both the SDK's with a key it does not know);
              // a malformed one reached neither (the SDK refused it).
              expect([direct.mock.calls.length, throughSdk.mock.calls.length]).toEqual(!wellFormed ? [0, 0] : s.extra ? [0, 2] : [1, 1]);
            }
          } finally {
            await session.close();
          }
        }),
        { numRuns: 40 },
      );
    } finally {
      direct.mockRestore();
      throughSdk.mockRestore();
    }
  });
});

describe('direct calls: order and cancellation', () => {
  const call = (id: number, name: string, args: object, meta?: object) => ({ id, method: 'tools/call', params: { name, arguments: args, ...(meta && { _meta: meta }) } });
  const responseTo = (received: JSONRPCMessage[], id: number) => received.find((m) => 'id' in m && m.id === id && !('method' in m));

  it('keeps arrival order with calls the SDK handler answers: a read that arrives after a write waits for it', async () => {
    await withSession(async (session, log) => {
      const done = Promise.all([session.response(1), session.response(2)]);
      // Sent in one go: the write goes through the SDK's handler, the read directly.
      void session.send(call(1, 'probe_write', { label: 'w', ms: 5 }, { [THROUGH_SDK]: true }));
      void session.send(call(2, 'probe_read', { label: 'r', ms: 0 }));
      await done;
      expect(log.spans.get('r')!.start).toBeGreaterThan(log.spans.get('w')!.end!);
    });
  });

  it('cancels a direct call in flight on notifications/cancelled: its ctx.signal aborts and no response is sent', async () => {
    await withSession(async (session, log) => {
      void session.send(call(1, 'wait_for_cancel', {}));
      await until(() => log.started.length === 1);
      await session.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } });
      await until(() => log.cancelled.length === 1);
      // A later request's answer comes after anything the cancelled call could still have sent.
      await session.request(2, 'ping', {});
      expect(log.cancelled).toEqual([toolUseIdOf(1)]);
      expect(responseTo(session.received, 1)).toBeUndefined();
    });
  });

  it('never starts a direct call cancelled while it waited for its turn', async () => {
    await withSession(async (session, log) => {
      const written = session.response(1);
      void session.send(call(1, 'probe_write', { label: 'w', ms: 20 }));
      void session.send(call(2, 'probe_read', { label: 'queued', ms: 0 }));
      void session.send({ method: 'notifications/cancelled', params: { requestId: 2 } });
      await written;
      await session.request(3, 'ping', {});
      expect([...log.spans.keys()]).toEqual(['w']);
      expect(responseTo(session.received, 2)).toBeUndefined();
    });
  });

  it('cancels a direct call only on notifications/cancelled, and passes a cancellation on to the SDK for the calls its handler answers', async () => {
    await withSession(async (session, log) => {
      void session.send(call(1, 'wait_for_cancel', {}));
      void session.send(call(2, 'wait_for_cancel', {}, { [THROUGH_SDK]: true }));
      await until(() => log.started.length === 2);
      // Another notification that names the call is no cancellation.
      await session.send({ method: 'notifications/roots/list_changed', params: { requestId: 1 } });
      await session.request(3, 'ping', {});
      expect(log.cancelled).toEqual([]);
      await session.send({ method: 'notifications/cancelled', params: { requestId: 2 } });
      await until(() => log.cancelled.length === 1);
      expect(log.cancelled).toEqual([toolUseIdOf(2)]);
      await session.send({ method: 'notifications/cancelled', params: { requestId: 1 } });
      await until(() => log.cancelled.length === 2);
      await session.request(4, 'ping', {});
      expect(responseTo(session.received, 1)).toBeUndefined();
      expect(responseTo(session.received, 2)).toBeUndefined();
    });
  });

  it('leaves to the SDK a call made before initialize, one whose progress token is neither a string nor a number, and one whose _meta is no object', async () => {
    const direct = jest.spyOn(McpToolServer.prototype as never as { answerDirect: () => unknown }, 'answerDirect');
    const early = await rawSession(new ProbeLog(), { initialize: false });
    const odd = await rawSession();
    try {
      const [answer] = await early.request(1, 'tools/call', { name: 'probe_read', arguments: { label: 'early', ms: 0 } });
      expect(answer).toMatchObject({ id: 1, result: { structuredContent: { label: 'early' } } });
      // The SDK does not answer it at all (over stdio its decoder drops the line); a later request's answer shows it was passed on.
      void odd.send(call(1, 'probe_read', { label: 'odd', ms: 0 }, { progressToken: true }));
      void odd.send({ id: 2, method: 'tools/call', params: { name: 'probe_read', arguments: { label: 'odd', ms: 0 }, _meta: ['not', 'an', 'object'] } });
      await odd.request(3, 'ping', {});
      expect(direct).not.toHaveBeenCalled();
    } finally {
      direct.mockRestore();
      await Promise.all([early.close(), odd.close()]);
    }
  });

  it('cancels the latest call of a reused id, and keeps no call once it is answered', async () => {
    await withSession(async (session, log) => {
      const first = session.response(1);
      void session.send(call(1, 'probe_read', { label: 'first', ms: 20 }));
      // The same id again while the first is in flight: a cancellation names the latest.
      void session.send(call(1, 'wait_for_cancel', {}));
      await first;
      await until(() => log.started.length === 1);
      // Long enough for everything the first call does after its answer to have run.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await session.send({ method: 'notifications/cancelled', params: { requestId: 1 } });
      await until(() => log.cancelled.length === 1);
      await session.request(2, 'ping', {});
      const direct = (session.sdkServer as never as { direct: { inFlight: Map<unknown, unknown> } }).direct;
      expect(direct.inFlight.size).toBe(0);
    });
  });

  it('aborts the ctx.signal of a direct call in flight when the transport closes', async () => {
    const log = new ProbeLog();
    const session = await rawSession(log);
    void session.send(call(1, 'wait_for_cancel', {}));
    await until(() => log.started.length === 1);
    await session.close();
    await until(() => log.cancelled.length === 1);
    expect(log.cancelled).toEqual([toolUseIdOf(1)]);
  });
});

/** Runs `test` on a fresh raw session, closed afterwards whatever happens. */
async function withSession(test: (session: Awaited<ReturnType<typeof rawSession>>, log: ProbeLog) => Promise<void>): Promise<void> {
  const log = new ProbeLog();
  const session = await rawSession(log);
  try {
    await test(session, log);
  } finally {
    await session.close();
  }
}

/** Waits for `condition`, well inside the container's 30 s call timeout (which would abort a call by itself). */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe('DirectCalls when something breaks', () => {
  /** A connected 2025-11-25 server stand-in and a transport that records what is sent (or fails to send). */
  function harness(send: (message: JSONRPCMessage) => Promise<void>) {
    const errors: Error[] = [];
    const server = { getClientCapabilities: () => ({}), onerror: (error: Error) => void errors.push(error) } as never as Server;
    const transport = { onmessage: () => undefined, send } as never as Transport;
    return { server, transport, errors };
  }
  const level = { allows: () => true } as never as SessionLogLevel;
  const request = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'x' } } as JSONRPCMessage;

  it('answers Internal error, and reports it, if the answer ever rejects: every request gets a response', async () => {
    const sent: JSONRPCMessage[] = [];
    const { server, transport, errors } = harness(async (message) => void sent.push(message));
    new DirectCalls(server, level, () => Promise.reject(new Error('a bug'))).intercept(transport);
    transport.onmessage!(request);
    await until(() => sent.length === 1);
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'Internal error' } }]);
    expect(errors.map(String)).toEqual(['Error: a bug']);
  });

  it('sends nothing for a cancelled call, even if its answer rejected', async () => {
    const sent: JSONRPCMessage[] = [];
    const { server, transport, errors } = harness(async (message) => void sent.push(message));
    let reject!: (error: Error) => void;
    new DirectCalls(server, level, () => new Promise((_, no) => (reject = no))).intercept(transport);
    transport.onmessage!(request);
    transport.onmessage!({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } });
    await until(() => reject !== undefined);
    reject(new Error('a bug'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sent).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('reports a response the transport could not send', async () => {
    const { server, transport, errors } = harness(() => Promise.reject(new Error('EPIPE')));
    new DirectCalls(server, level, async () => ({ content: [] })).intercept(transport);
    transport.onmessage!(request);
    await until(() => errors.length === 1);
    expect(errors.map(String)).toEqual(['Error: Failed to send response: Error: EPIPE']);
  });
});
