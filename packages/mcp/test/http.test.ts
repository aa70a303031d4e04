import { createMcpServer } from '@toolwright/mcp';
import { probeContainer } from './fixtures/probe-tools';
import { httpClient, listen, textOf, until, verifier } from './support/clients';
import { probeAuth as auth, probeSuite } from './support/probe-suite';

describe('Streamable HTTP on loopback, stateful sessions', () => {
  const s = probeSuite(httpClient);
  const { log, toolLog } = s;

  it('lists the tools with annotations from the declared effect and @Tool hints', async () => {
    const { tools } = await s.ana.listTools();
    expect(tools.map((t) => t.name)).toEqual(['probe_read', 'probe_write', 'wait_for_cancel', 'refund', 'catalog']);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.probe_read).toMatchObject({ title: 'Probe read', annotations: { readOnlyHint: true, openWorldHint: false } });
    expect(byName.probe_write.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(byName.refund.annotations).toEqual({ readOnlyHint: false });
    expect(byName.refund.inputSchema).toEqual(probeContainer().definitions().find((d) => d.name === 'refund')!.input_schema);
    expect(byName.probe_read.outputSchema).toEqual({ type: 'object', properties: { label: { type: 'string' } }, required: ['label'] });
    expect(byName.catalog.outputSchema).toBeUndefined();
  });

  it('answers a call with structuredContent and the same JSON as text', async () => {
    const result = await s.ana.callTool({ name: 'probe_read', arguments: { label: 'one', ms: 0 } });
    expect(result).toEqual({ content: [{ type: 'text', text: '{"label":"one"}' }], structuredContent: { label: 'one' } });
  });

  it('refuses invalid input with the validation message, as an isError result', async () => {
    const result = await s.ana.callTool({ name: 'refund', arguments: { numero: '1001', extra: true } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Invalid input for refund:/);
    expect(textOf(result)).toMatch(/numero/);
    expect(textOf(result)).toMatch(/extra/);
  });

  it('returns a ToolError as an isError result with its message', async () => {
    const result = await s.ana.callTool({ name: 'catalog', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'the catalog is offline; retry in 60 s' }], isError: true });
  });

  it('answers an unknown tool with the available names', async () => {
    const result = await s.ana.callTool({ name: 'nope', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Unknown tool "nope"\. Available tools: probe_read, probe_write/);
  });

  it('runs the guard on ctx.auth from the bearer token: allowed with it, refused without or for another customer', async () => {
    await expect(s.ana.callTool({ name: 'refund', arguments: { numero: 'A-1001' } })).resolves.toEqual({
      content: [{ type: 'text', text: '{"numero":"A-1001","by":"C-ana"}' }],
      structuredContent: { numero: 'A-1001', by: 'C-ana' },
    });
    const refused = { content: [{ type: 'text', text: 'Not allowed: refund refused this call.' }], isError: true };
    await expect(s.anonymous.callTool({ name: 'refund', arguments: { numero: 'A-1001' } })).resolves.toEqual(refused);
    const bruno = await httpClient(s.http.url, 't-bruno');
    await expect(bruno.callTool({ name: 'refund', arguments: { numero: 'A-1001' } })).resolves.toEqual(refused);
    await bruno.close();
  });

  it('answers 401 invalid_token to a token the verifier rejects or that has expired', async () => {
    await expect(httpClient(s.http.url, 't-mallory')).rejects.toThrow(/invalid_token/);
    await expect(httpClient(s.http.url, 't-expired')).rejects.toThrow(/invalid_token/);
  });

  it('aborts ctx.signal on notifications/cancelled, and the session goes on', async () => {
    const controller = new AbortController();
    const pending = s.ana.callTool({ name: 'wait_for_cancel', arguments: {} }, undefined, { signal: controller.signal });
    await until(() => log.started.length === 1);
    controller.abort('the user pressed stop');
    await expect(pending).rejects.toThrow();
    await until(() => log.cancelled.length === 1);
    expect(log.cancelled).toEqual(log.started);
    await expect(s.ana.callTool({ name: 'probe_write', arguments: { label: 'after-cancel', ms: 0 } })).resolves.toMatchObject({ structuredContent: { label: 'after-cancel' } });
    // A cancellation the tool honoured (rejecting with an AbortError, as fetch does) is no failure: nothing in the container's or the handler's log.
    expect(toolLog.lines).toEqual([]);
    expect(s.http.logger.lines.join('\n')).not.toMatch(/AbortError|\n\s+at /);
  });

  it('runs concurrent reads of one session together and a write alone', async () => {
    const calls = [
      ['probe_read', 'r1'],
      ['probe_read', 'r2'],
      ['probe_write', 'w1'],
      ['probe_read', 'r3'],
    ];
    // r1 stays open until r2 has started, so the overlap does not depend on the host's speed.
    const release = log.hold('r1');
    const all = Promise.all(calls.map(([name, label]) => s.ana.callTool({ name, arguments: { label, ms: 30 } })));
    // Awaited below; a check that throws first must not leave it rejecting unhandled when the client closes.
    all.catch(() => undefined);
    try {
      await until(() => log.spans.has('r2'));
    } finally {
      release();
    }
    await all;
    const span = (label: string) => log.spans.get(label)!;
    // The two reads overlap; the write overlaps nothing.
    expect(span('r1').start < span('r2').end! && span('r2').start < span('r1').end!).toBe(true);
    for (const other of ['r1', 'r2', 'r3']) {
      expect(span(other).end! < span('w1').start || span(other).start > span('w1').end!).toBe(true);
    }
  });

  it('answers a request with an unknown Mcp-Session-Id with 404', async () => {
    const response = await fetch(s.http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'nope' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
  });
});

describe('Streamable HTTP on loopback, the standalone GET stream', () => {
  // Its headers go out at once, as the plain SDK server sends them: a client awaiting the GET
  // learns the stream is open, and a proxy does not wait for a first event before answering.
  it('answers a GET with text/event-stream headers before any event is sent', async () => {
    const server = createMcpServer(probeContainer(), { name: 'probe', version: '1.0.0', auth });
    const http = await listen(server, { verifier });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer t-ana' };
    const controller = new AbortController();
    try {
      const init = await fetch(http.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
      await init.text();
      const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
      await (await fetch(http.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();

      const stream = await fetch(http.url, { method: 'GET', headers: { ...session, accept: 'text/event-stream' }, signal: controller.signal });

      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream');
    } finally {
      controller.abort();
      await http.close();
    }
  });
});

describe('Streamable HTTP on loopback, requireAuth', () => {
  it('answers 401 to a request without a token, and serves one with a valid token', async () => {
    const server = createMcpServer(probeContainer(), { name: 'probe', version: '1.0.0', auth });
    const http = await listen(server, { verifier, requireAuth: true });
    try {
      await expect(httpClient(http.url)).rejects.toThrow(/invalid_token/);
      const client = await httpClient(http.url, 't-ana');
      await expect(client.callTool({ name: 'refund', arguments: { numero: 'A-1002' } })).resolves.toMatchObject({ structuredContent: { by: 'C-ana' } });
      await client.close();
    } finally {
      await http.close();
    }
  });
});

describe('Streamable HTTP on loopback, idle sessions', () => {
  it('closes a session after idleTimeoutMs without a request; its id then gets 404', async () => {
    const server = createMcpServer(probeContainer(), { name: 'probe', version: '1.0.0', auth });
    const http = await listen(server, { verifier, idleTimeoutMs: 400 });
    const client = await httpClient(http.url, 't-ana');
    try {
      await client.callTool({ name: 'probe_read', arguments: { label: 'a', ms: 0 } });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // A request inside the window keeps the session open.
      await client.callTool({ name: 'probe_read', arguments: { label: 'b', ms: 0 } });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await expect(client.callTool({ name: 'probe_read', arguments: { label: 'c', ms: 0 } })).rejects.toThrow(/404|not found/);
    } finally {
      await client.close();
      await http.close();
    }
  });
});

describe('Streamable HTTP on loopback, stateless', () => {
  it('serves list and call without a session id', async () => {
    const server = createMcpServer(probeContainer(), { name: 'probe', version: '1.0.0', auth });
    const http = await listen(server, { sessions: 'stateless' });
    const client = await httpClient(http.url);
    try {
      expect((await client.listTools()).tools).toHaveLength(5);
      await expect(client.callTool({ name: 'probe_read', arguments: { label: 'x', ms: 0 } })).resolves.toMatchObject({ structuredContent: { label: 'x' } });
    } finally {
      await client.close();
      await http.close();
    }
  });
});
