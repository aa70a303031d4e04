import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ToolContainer } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { ProbeLog, ProbeTools, probeManifest, silentLogger, type Session } from './fixtures/probe-tools';
import { listen, textOf } from './support/clients';

// On 2026-07-28 an approved call is a retry carrying `requestState` (sealed, naming the call shown
// and a nonce, bound to the principal, 10 minutes) and the form's answer. One "yes" runs the call
// once: the same retry sent again (a client or proxy retrying a POST that timed out, or anyone
// replaying it) does not run it again, and neither does a retry whose state was altered, has
// expired, is sent by another principal or names another call.

const auth = (info: { clientId: string } | undefined): Session | undefined => (info ? { customerId: info.clientId } : undefined);

/** A request as the client posted it. */
interface Posted {
  headers: Headers;
  body: string;
}

/** The JSON-RPC message with `id` in a response, whether sent as JSON or as SSE. */
async function messageOf(response: Response, id: unknown): Promise<any> {
  const text = await response.text();
  const lines = text.includes('data: ') ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).filter((l) => l.trim() !== '') : [text];
  return lines.map((l) => JSON.parse(l)).find((m) => m.id === id);
}

describe('approval over MCP on 2026-07-28: one "yes", one run', () => {
  const log = new ProbeLog();
  const tools = new ToolContainer<Session | undefined>({ manifest: probeManifest, providers: [new ProbeTools(log)], logger: silentLogger, approval: 'writes' });
  const runs = new Map<string, number>();
  const start = log.start.bind(log);
  log.start = (label, effect) => {
    runs.set(label, (runs.get(label) ?? 0) + 1);
    start(label, effect);
  };
  let http: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    http = await listen(createMcpServer(tools, { name: 'probe', version: '1.0.0', auth }));
  });
  afterAll(() => http.close());

  /**
   * The approved retry of a call of probe_write with `label`, whose user said yes to the form.
   * `deliver: false`: the retry is kept, not sent (its approval is still unused).
   */
  async function approvedRetry(label: string, deliver: boolean): Promise<Posted> {
    let retry: Posted | undefined;
    const recording = async (input: string | URL | Request, init?: RequestInit) => {
      if (init?.method === 'POST' && typeof init.body === 'string' && init.body.includes('"requestState"') && init.body.includes(label)) {
        retry = { headers: new Headers(init.headers), body: init.body };
        if (!deliver) return new Response('held by the test', { status: 503 });
      }
      return fetch(input, init);
    };
    const client = new Client({ name: 'v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { approve: true } }));
    await client.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: 'Bearer t-ana' } }, fetch: recording }));
    try {
      const call = client.callTool({ name: 'probe_write', arguments: { label, ms: 0 } });
      if (deliver) await expect(call).resolves.toMatchObject({ structuredContent: { label } });
      else await expect(call).rejects.toThrow();
    } finally {
      await client.close();
    }
    expect(retry).toBeDefined();
    return retry!;
  }

  /** Posts `retry` (altered by `change`), as anyone holding its bytes could; the JSON-RPC answer. */
  async function send(retry: Posted, change: (request: any, headers: Headers) => void = () => undefined): Promise<any> {
    const request = JSON.parse(retry.body);
    const headers = new Headers(retry.headers);
    change(request, headers);
    return messageOf(await fetch(http.url, { method: 'POST', headers, body: JSON.stringify(request) }), request.id);
  }

  it('runs an approved write once: the approved retry sent a second time does not run it again', async () => {
    const retry = await approvedRetry('pay-once', true);
    expect(runs.get('pay-once')).toBe(1);
    const replayed = await send(retry);
    // One "yes" in the form, one run of the write; the model is told why, and what to do.
    expect(runs.get('pay-once')).toBe(1);
    expect(replayed.result.isError).toBe(true);
    expect(textOf(replayed.result)).toBe('Not run: that approval was already used; call probe_write again to be asked.');
  });

  it('runs it once when two copies of the approved retry arrive together', async () => {
    const retry = await approvedRetry('pay-twice-at-once', false);
    const answers = await Promise.all([send(retry), send(retry)]);
    expect(runs.get('pay-twice-at-once')).toBe(1);
    expect(answers.filter((a) => a.result?.isError === true)).toHaveLength(1);
  });

  it('does not run a retry whose state was altered (another nonce, to dodge the used list)', async () => {
    const retry = await approvedRetry('pay-tampered', false);
    const answer = await send(retry, (request) => {
      const state: string = request.params.requestState;
      const [version, body, mac] = state.split('.');
      const envelope = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      envelope.p.nonce = Buffer.from('a nonce of my own').toString('base64url');
      request.params.requestState = [version, Buffer.from(JSON.stringify(envelope)).toString('base64url'), mac].join('.');
    });
    expect(answer.error?.message).toMatch(/Invalid or expired requestState/);
    expect(runs.has('pay-tampered')).toBe(false);
    // The unaltered retry was good: the refusal was the tampering's.
    await send(retry);
    expect(runs.get('pay-tampered')).toBe(1);
  });

  it('does not run a retry sent after its state expired (10 minutes)', async () => {
    const retry = await approvedRetry('pay-late', false);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 601_000);
    try {
      const answer = await send(retry);
      expect(answer.error?.message).toMatch(/Invalid or expired requestState/);
    } finally {
      clock.mockRestore();
    }
    expect(runs.has('pay-late')).toBe(false);
  });

  it("does not run another principal's approved retry (Bruno replays Ana's)", async () => {
    const retry = await approvedRetry('pay-foreign', false);
    const answer = await send(retry, (_request, headers) => headers.set('authorization', 'Bearer t-bruno'));
    expect(answer.error?.message).toMatch(/Invalid or expired requestState/);
    expect(runs.has('pay-foreign')).toBe(false);
  });

  it('does not run another call with the state and "yes" of the call that was shown', async () => {
    const retry = await approvedRetry('pay-shown', false);
    const answer = await send(retry, (request) => (request.params.arguments.label = 'pay-swapped'));
    expect(answer.result.isError).toBe(true);
    expect(textOf(answer.result)).toBe('Not run: that approval was not asked for this call; call probe_write again to be asked.');
    expect(runs.has('pay-swapped')).toBe(false);
    expect(runs.has('pay-shown')).toBe(false);
  });
});
