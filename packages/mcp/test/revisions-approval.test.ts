import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolContainer } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, ProbeTools, probeManifest, silentLogger, type Session } from './fixtures/probe-tools';
import { listen, textOf } from './support/clients';

const auth = (info: { clientId: string } | undefined): Session | undefined => (info ? { customerId: info.clientId } : undefined);
const headers = { authorization: 'Bearer t-ana' };
type Answer = 'accept' | 'decline' | undefined;

/** The official v2 client on 2026-07-28; `answer` is what its user says to a form (undefined: it cannot show forms). */
async function modernClient(url: URL, answer: Answer) {
  const client = new ClientV2(
    { name: 'v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(answer && { capabilities: { elicitation: { form: {} } } }) },
  );
  if (answer) client.setRequestHandler('elicitation/create', () => (answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' }));
  await client.connect(new TransportV2(url, { requestInit: { headers } }));
  return Object.assign(client, { revision: client.getNegotiatedProtocolVersion() });
}

/** The v1 client (`@modelcontextprotocol/sdk` 1.32) on 2025-11-25. */
async function legacyClient(url: URL, answer: Answer) {
  const client = new ClientV1({ name: 'v1', version: '1.0.0' }, answer ? { capabilities: { elicitation: { form: {} } } } : {});
  if (answer) client.setRequestHandler(ElicitRequestSchema, () => (answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' }));
  const transport = new TransportV1(url, { requestInit: { headers } });
  await client.connect(transport);
  return Object.assign(client, { revision: transport.protocolVersion });
}

describe.each([
  ['2026-07-28 (official v2 client)', modernClient],
  ['2025-11-25 (v1 client)', legacyClient],
] as const)('one endpoint, %s', (revision, connect) => {
  const log = new ProbeLog();
  // Every write waits for a person, as with the example app's policy.
  const tools = new ToolContainer<Session | undefined>({ manifest: probeManifest, providers: [new ProbeTools(log)], logger: silentLogger, approval: 'writes' });
  const server = createMcpServer(tools, { name: 'probe', version: '1.0.0', auth });
  let http: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    http = await listen(server);
  });
  afterAll(() => http.close());

  it('negotiates its revision, lists the tools and runs a read without asking', async () => {
    const client = await connect(http.url, undefined);
    expect(client.revision).toBe(revision.slice(0, 10));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['probe_read', 'probe_write', 'wait_for_cancel', 'refund', 'catalog']);
    await expect(client.callTool({ name: 'probe_read', arguments: { label: `${revision}-read`, ms: 0 } })).resolves.toMatchObject({ structuredContent: { label: `${revision}-read` } });
    await client.close();
  });

  it('runs a write that needs approval once the user accepts the form', async () => {
    const client = await connect(http.url, 'accept');
    const label = `${revision}-approved`;
    await expect(client.callTool({ name: 'probe_write', arguments: { label, ms: 0 } })).resolves.toMatchObject({ structuredContent: { label } });
    expect(log.spans.has(label)).toBe(true);
    await client.close();
  });

  it('does not run a write the user declines', async () => {
    const client = await connect(http.url, 'decline');
    const label = `${revision}-declined`;
    const result = await client.callTool({ name: 'probe_write', arguments: { label, ms: 0 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/did not approve probe_write/);
    expect(log.spans.has(label)).toBe(false);
    await client.close();
  });

  it('refuses a write that needs approval when the client cannot ask its user, saying to approve it in the app', async () => {
    const client = await connect(http.url, undefined);
    const label = `${revision}-unasked`;
    const result = await client.callTool({ name: 'probe_write', arguments: { label, ms: 0 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/needs a person's approval.*Approve it in the app/);
    expect(log.spans.has(label)).toBe(false);
    await client.close();
  });
});
