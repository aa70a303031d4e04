import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ctx, Param, Tool, ToolContainer, defineToolManifest, type ToolContext } from '@toolwright/core';
import { createMcpServer } from '@toolwright/mcp';
import { silentLogger } from './fixtures/probe-tools';
import { listen } from './support/clients';

// A tool's ctx.elicit over Streamable HTTP. The client's GET stream is optional (the spec's
// "MAY"), and a client that opens it does so beside its first calls, not before them: a form
// sent as an unrelated server request went to that stream, or nowhere when it was not open yet,
// and the call hung until its timeout (the conformance suite's tools-call-elicitation failed so
// on a loaded machine). Related to the call, it travels on the call's own stream.

class FormTools {
  @Tool({ effect: 'read' })
  async count(@Ctx() ctx: ToolContext): Promise<string> {
    await ctx.log('info', 'counting');
    await ctx.progress(1, 2);
    await ctx.progress(2, 2);
    return 'counted';
  }

  @Tool({ effect: 'read' })
  async askName(@Param() question: string, @Ctx() ctx: ToolContext): Promise<string> {
    const answer = await ctx.elicit!({ message: question, schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
    return answer.action === 'accept' ? `hello ${String(answer.content.name)}` : answer.action;
  }
}

const manifest = defineToolManifest([
  {
    provider: FormTools,
    method: 'count',
    definition: { name: 'count', description: 'Reports progress.', input_schema: { type: 'object', properties: {}, additionalProperties: false } },
    effect: 'read',
    inputClass: class CountInput {},
    parameters: [{ kind: 'ctx' }],
  },
  {
    provider: FormTools,
    method: 'askName',
    definition: {
      name: 'ask_name',
      description: 'Asks the user their name.',
      input_schema: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'], additionalProperties: false },
    },
    effect: 'read',
    inputClass: class AskNameInput {},
    parameters: [{ kind: 'param', property: 'question' }, { kind: 'ctx' }],
  },
]);

/** The SDK client, answering forms with a name; its GET stream refused (405), as a server without one answers. */
async function clientWithoutGetStream(url: URL, asked: string[]): Promise<Client> {
  const client = new Client({ name: 'no-get-stream', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { name: 'Ana' } };
  });
  const noGetStream = (input: string | URL | Request, init?: RequestInit) =>
    (init?.method ?? 'GET') === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init);
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: noGetStream }));
  return client;
}

describe('ctx.elicit, ctx.progress and ctx.log over Streamable HTTP', () => {
  const tools = new ToolContainer({ manifest, providers: [new FormTools()], logger: silentLogger });
  let http: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    http = await listen(createMcpServer(tools, { name: 'forms', version: '1.0.0' }), {});
  });
  afterAll(() => http.close());

  it('asks on the call’s own stream: a client with no GET stream gets the form and the answer', async () => {
    const asked: string[] = [];
    const client = await clientWithoutGetStream(http.url, asked);
    try {
      // Without the relation the form never reaches this client, and the call fails at this timeout.
      const result = await client.callTool({ name: 'ask_name', arguments: { question: 'Your name?' } }, undefined, { timeout: 5_000 });
      expect(result).toEqual({ content: [{ type: 'text', text: 'hello Ana' }] });
      expect(asked).toEqual(['Your name?']);
    } finally {
      await client.close();
    }
    expect(http.rejected).toEqual([]);
  });

  it('sends progress and log messages on the call’s own stream: a client with no GET stream gets them', async () => {
    const client = await clientWithoutGetStream(http.url, []);
    const logged: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(notification.params.data));
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'count', arguments: {} }, undefined, { onprogress: (p) => void progress.push(p.progress), timeout: 5_000 });
      expect(result).toEqual({ content: [{ type: 'text', text: 'counted' }] });
      expect(progress).toEqual([1, 2]);
      expect(logged).toEqual(['counting']);
    } finally {
      await client.close();
    }
  });
});
