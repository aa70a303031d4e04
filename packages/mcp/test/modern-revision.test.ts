import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { probeContainer } from './fixtures/probe-tools';
import { releasingAfter, textOf, until } from './support/clients';
import { probeSuite } from './support/probe-suite';

// The promises of the MCP guide on 2026-07-28, the stateless revision, through the official v2
// client: what http.test.ts shows on 2025-11-25 sessions, here per request, with the write order
// kept per principal (the revision has no sessions to keep it in). Results carry the revision's
// _meta (serverInfo) beside what the older revision sends, hence toMatchObject.

async function modernClient(url: URL, token?: string): Promise<Client> {
  const client = new Client({ name: 'v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} } }));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return client;
}

describe('Streamable HTTP on loopback, 2026-07-28 (official v2 client)', () => {
  const s = probeSuite(modernClient);
  const { log, toolLog } = s;

  it('lists the tools with annotations, the same input schema and the output schema', async () => {
    const { tools } = await s.ana.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.probe_read).toMatchObject({ title: 'Probe read', annotations: { readOnlyHint: true, openWorldHint: false } });
    expect(byName.refund.inputSchema).toEqual(probeContainer().definitions().find((d) => d.name === 'refund')!.input_schema);
    expect(byName.probe_read.outputSchema).toEqual({ type: 'object', properties: { label: { type: 'string' } }, required: ['label'] });
  });

  it('answers with structuredContent; invalid input, a ToolError and an unknown tool as isError results', async () => {
    await expect(s.ana.callTool({ name: 'probe_read', arguments: { label: 'one', ms: 0 } })).resolves.toMatchObject({
      content: [{ type: 'text', text: '{"label":"one"}' }],
      structuredContent: { label: 'one' },
    });
    const invalid = await s.ana.callTool({ name: 'refund', arguments: { numero: '1001', extra: true } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toBe('Invalid input for refund:\n- extra: unknown field; remove it\n- numero: must match /^A-\\d{4}$/. Got: "1001"\nFix the input and try again.');
    await expect(s.ana.callTool({ name: 'catalog', arguments: {} })).resolves.toMatchObject({ content: [{ type: 'text', text: 'the catalog is offline; retry in 60 s' }], isError: true });
    const unknown = await s.ana.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/Unknown tool "nope"\. Available tools: probe_read, probe_write/);
  });

  it('runs the guard on ctx.auth from the bearer token of each request', async () => {
    await expect(s.ana.callTool({ name: 'refund', arguments: { numero: 'A-1001' } })).resolves.toMatchObject({ structuredContent: { numero: 'A-1001', by: 'C-ana' } });
    const refused = { content: [{ type: 'text', text: 'Not allowed: refund refused this call.' }], isError: true };
    await expect(s.anonymous.callTool({ name: 'refund', arguments: { numero: 'A-1001' } })).resolves.toMatchObject(refused);
    const bruno = await modernClient(s.http.url, 't-bruno');
    await expect(bruno.callTool({ name: 'refund', arguments: { numero: 'A-1001' } })).resolves.toMatchObject(refused);
    await bruno.close();
    await expect(modernClient(s.http.url, 't-mallory')).rejects.toThrow(/invalid_token|401/);
  });

  it('aborts ctx.signal when the client cancels, and serves the next request', async () => {
    const controller = new AbortController();
    const before = log.cancelled.length;
    const pending = s.ana.callTool({ name: 'wait_for_cancel', arguments: {} }, { signal: controller.signal });
    await until(() => log.started.length > log.cancelled.length);
    controller.abort('the user pressed stop');
    await expect(pending).rejects.toThrow();
    await until(() => log.cancelled.length === before + 1);
    await expect(s.ana.callTool({ name: 'probe_write', arguments: { label: 'after-cancel', ms: 0 } })).resolves.toMatchObject({ structuredContent: { label: 'after-cancel' } });
    // The tool honoured it with an AbortError, as fetch does: no failure in the container's or the handler's log.
    expect(toolLog.lines).toEqual([]);
    expect(s.http.logger.lines.join('\n')).not.toMatch(/AbortError|\n\s+at /);
  });

  it("keeps one principal's order across requests (reads together, a write alone) and does not hold another principal's calls", async () => {
    const calls = [
      ['probe_read', 'm-r1'],
      ['probe_read', 'm-r2'],
      ['probe_write', 'm-w1'],
      ['probe_read', 'm-r3'],
    ];
    const bruno = await modernClient(s.http.url, 't-bruno');
    // m-r1 stays open until m-r2 has started, and Ana's write until Bruno's read is answered, so
    // neither overlap depends on the host's speed.
    const releaseRead = log.hold('m-r1');
    const release = log.hold('m-w1');
    const ours = Promise.all(calls.map(([name, label]) => s.ana.callTool({ name, arguments: { label, ms: 40 } })));
    // Awaited below; a check that throws first must not leave it rejecting unhandled when the client closes.
    ours.catch(() => undefined);
    try {
      await until(() => log.spans.has('m-r2'));
      releaseRead();
      await until(() => log.spans.has('m-w1'));
      // Bruno's read runs while Ana's write does: the order is per principal.
      await releasingAfter(release, () => bruno.callTool({ name: 'probe_read', arguments: { label: 'm-other', ms: 0 } }));
    } finally {
      releaseRead();
      release();
    }
    await ours;
    await bruno.close();
    const span = (label: string) => log.spans.get(label)!;
    expect(span('m-r1').start < span('m-r2').end! && span('m-r2').start < span('m-r1').end!).toBe(true);
    for (const other of ['m-r1', 'm-r2', 'm-r3']) {
      expect(span(other).end! < span('m-w1').start || span(other).start > span('m-w1').end!).toBe(true);
    }
    expect(span('m-other').start < span('m-w1').end!).toBe(true);
  });
});
