import { Param, Tool, ToolContainer, defineToolManifest, type Class, type ToolContext } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';
import { OrderTools, ordersManifest } from '../fixtures/orders';
import { FailInput, ShopTools, recordingLogger, shopManifest, type Session } from '../fixtures/shop';

function shop() {
  const logger = recordingLogger();
  const tools = new ShopTools();
  const container = new ToolContainer<Session>({ manifest: shopManifest, providers: [tools], logger });
  const run = async (name: string, input: unknown, auth: Session = { customerId: 'C-1' }) => {
    const [result] = await container.execute([toolUse('toolu_1', name, input)], { auth });
    return result;
  };
  return { container, tools, logger, run };
}

describe("the lesson's three scenarios at the container level", () => {
  const orders = () => {
    const tools = new OrderTools();
    return { tools, container: new ToolContainer({ manifest: ordersManifest, providers: [tools] }) };
  };

  it('one call: the result carries the same id and the order as JSON', async () => {
    const { container } = orders();
    const reply = await container.reply([
      { type: 'text', text: 'Vou consultar o pedido.', citations: null },
      toolUse('toolu_01', 'buscar_pedido', { numero: 'A-1001' }),
    ]);
    expect(reply).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '{"status":"enviado","previsao":"2026-10-20"}' }],
    });
  });

  it('an invalid number 1002 is refused naming the field and format; A-1002 is then accepted', async () => {
    const { container, tools } = orders();
    const [refused] = await container.execute([toolUse('toolu_02', 'buscar_pedido', { numero: '1002' })]);
    expect(refused.is_error).toBe(true);
    expect(refused.content).toBe(
      'Invalid input for buscar_pedido:\n' +
        '- numero: must match /^A-\\d{4}$/. Expected: Número do pedido no formato A-1234. Got: "1002"\n' +
        'Fix the input and try again.',
    );
    expect(tools.calls).toEqual([]);
    const [accepted] = await container.execute([toolUse('toolu_03', 'buscar_pedido', { numero: 'A-1002' })]);
    expect(accepted).toEqual({ type: 'tool_result', tool_use_id: 'toolu_03', content: '{"status":"entregue","previsao":null}' });
  });

  it('two calls are answered in one message, in tool_use order', async () => {
    const { container, tools } = orders();
    const reply = await container.reply([
      toolUse('toolu_04a', 'buscar_pedido', { numero: 'A-1001' }),
      toolUse('toolu_04b', 'buscar_pedido', { numero: 'A-1002' }),
    ]);
    expect(reply.content.map((r) => [r.tool_use_id, r.content])).toEqual([
      ['toolu_04a', '{"status":"enviado","previsao":"2026-10-20"}'],
      ['toolu_04b', '{"status":"entregue","previsao":null}'],
    ]);
    expect(tools.calls.sort()).toEqual(['toolu_04a:A-1001', 'toolu_04b:A-1002']);
  });
});

describe('execute() answers every tool_use and ignores other blocks', () => {
  it('one result per tool_use, same ids, same order; text and server-tool blocks are skipped', async () => {
    const { container } = shop();
    const results = await container.execute([
      { type: 'text', text: 'thinking aloud', citations: null },
      toolUse('a', 'whoami', {}),
      { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: { query: 'x' }, caller: { type: 'direct' } } as never,
      { type: 'web_search_tool_result', tool_use_id: 'srv_1', content: [], caller: { type: 'direct' } } as never,
      toolUse('b', 'echo', { value: 'hi' }),
    ]);
    expect(results.map((r) => r.tool_use_id)).toEqual(['a', 'b']);
    expect(results[1].content).toBe('hi');
  });

  it('no tool_use blocks: no results', async () => {
    const { container } = shop();
    expect(await container.execute([{ type: 'text', text: 'done', citations: null }])).toEqual([]);
  });

  it('passes the ToolContext: toolUseId, toolName, auth, signal, logger', async () => {
    const { run } = shop();
    const result = await run('whoami', {}, { customerId: 'C-7' });
    expect(JSON.parse(result.content as string)).toEqual({
      toolUseId: 'toolu_1',
      toolName: 'whoami',
      auth: { customerId: 'C-7' },
      aborted: false,
      hasLogger: true,
    });
  });
});

describe('each failure is an is_error result the model can act on', () => {
  it('unknown tool: names it and lists the available tools', async () => {
    const { run } = shop();
    expect(await run('buscar_pedidos', {})).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      is_error: true,
      content: 'Unknown tool "buscar_pedidos". Available tools: place_order, echo, fail, whoami.',
    });
  });

  it.each([
    [null, 'null'],
    [[1, 2], 'an array'],
    ['A-1001', 'string'],
    [42, 'number'],
  ])('input %j is not an object', async (input, got) => {
    const { run, tools } = shop();
    const result = await run('echo', input);
    expect(result).toMatchObject({ is_error: true, content: `Invalid input: expected a JSON object, got ${got}.` });
    expect(tools.seen).toEqual([]);
  });

  it('validation: one line per failing field with its path, what failed, the expected format and the value', async () => {
    const { run, tools } = shop();
    const result = await run('place_order', {
      customer: 'C-1',
      items: [{ sku: 'SKU-1', qty: 2 }, { sku: 'bad', qty: 0 }],
      note: 'x'.repeat(60),
      coupon: 'FREE',
    });
    expect(result.is_error).toBe(true);
    const lines = (result.content as string).split('\n');
    expect(lines[0]).toBe('Invalid input for place_order:');
    expect(lines).toContain('- coupon: unknown field; remove it');
    expect(lines).toContain(`- note: must be at most 20 characters long. Got: "${'x'.repeat(39)}…`);
    expect(lines).toContain(
      '- items[1].sku: must match /^SKU-\\d+$/. Expected: Stock keeping unit, SKU-<digits>. Got: "bad"',
    );
    expect(lines).toContain('- items[1].qty: must not be less than 1. Got: 0');
    expect(lines.at(-1)).toBe('Fix the input and try again.');
    expect(tools.seen).toEqual([]);
  });

  it('validation: a missing required field says so', async () => {
    const { run } = shop();
    const result = await run('place_order', { items: [] });
    expect(result.content).toBe(
      'Invalid input for place_order:\n- customer: required but missing. Expected: Customer id in the format C-123.\nFix the input and try again.',
    );
  });

  it('validation: the whole message is capped', async () => {
    const { run } = shop();
    const items = Array.from({ length: 60 }, () => ({ sku: 'nope-nope-nope', qty: 500 }));
    const result = await run('place_order', { customer: 'C-1', items });
    const content = result.content as string;
    expect(content.length).toBeLessThan(1_200);
    expect(content).toMatch(/- …and \d+ more\nFix the input and try again\.$/);
  });

  it.each([
    ['{"__proto__": {"polluted": true}}', '__proto__'],
    ['{"value": {"a": [{"__proto__": {"polluted": true}}]}}', 'value.a[0].__proto__'],
  ])('refuses %s and leaves Object.prototype untouched', async (json, path) => {
    const { run, tools } = shop();
    const result = await run('echo', JSON.parse(json));
    expect(result).toMatchObject({ is_error: true, content: `Invalid input: key "${path}" is not allowed.` });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(tools.seen).toEqual([]);
  });

  it('refuses absurdly deep nesting', async () => {
    const { run } = shop();
    let value: unknown = 1;
    for (let i = 0; i < 200; i++) value = { value };
    const result = await run('echo', { value });
    expect(result).toMatchObject({ is_error: true, content: 'Invalid input: nested deeper than 64 levels.' });
  });

  it('guard refusal says "not allowed" with the tool name and nothing of the rule', async () => {
    const { run, tools } = shop();
    const result = await run('place_order', { customer: 'C-2', items: [] }, { customerId: 'C-1' });
    expect(result).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: 'Not allowed: place_order refused this call.' });
    expect(tools.seen).toEqual([]);
    expect((await run('place_order', { customer: 'C-1', items: [] }, { customerId: 'C-1' })).is_error).toBeUndefined();
  });

  it('ToolError: its message reaches the model', async () => {
    const { run, logger } = shop();
    expect(await run('fail', { how: 'tool-error' })).toMatchObject({ is_error: true, content: 'rate limit exceeded, retry in 60 s' });
    expect(logger.errors).toEqual([]);
  });

  it('ToolError with content blocks: the blocks reach the model', async () => {
    const { run } = shop();
    expect(await run('fail', { how: 'tool-error-blocks' })).toMatchObject({
      is_error: true,
      content: [{ type: 'text', text: 'try SKU-2 instead' }],
    });
  });

  it('a TypeError: the model gets a generic line, the logger gets the stack', async () => {
    const { run, logger } = shop();
    const result = await run('fail', { how: 'type-error' });
    expect(result).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      is_error: true,
      content: 'Internal error in fail. It was logged; do not retry with the same input.',
    });
    expect(logger.errors).toHaveLength(1);
    const [message, error] = logger.errors[0];
    expect(message).toContain('fail (toolu_1)');
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).stack).toContain('ShopTools.fail');
  });

  it('a rejection with a non-Error value: generic line, the value only in the log', async () => {
    const { run, logger } = shop();
    const result = await run('fail', { how: 'reject-string' });
    expect(result.content).toBe('Internal error in fail. It was logged; do not retry with the same input.');
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(logger.errors[0][1]).toBe('db password=hunter2 leaked');
  });

  it('logs to stderr by default', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const container = new ToolContainer({ manifest: shopManifest, providers: [new ShopTools()] });
      await container.execute([toolUse('x', 'fail', { how: 'type-error' })]);
      expect(spy).toHaveBeenCalledWith(expect.stringContaining('fail (x)'), expect.any(TypeError));
    } finally {
      spy.mockRestore();
    }
  });
});

describe('result shaping', () => {
  it.each([
    ['a string as is', 'plain text', 'plain text'],
    ['an object as JSON', { a: 1 }, '{"a":1}'],
    ['an array as JSON', [1, 2], '[1,2]'],
    ['null as JSON', null, 'null'],
  ])('%s', async (_label, value, content) => {
    const { run } = shop();
    expect(await run('echo', { value })).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content });
  });

  it('undefined as an empty result', async () => {
    const { run } = shop();
    expect(await run('echo', { value: { kind: 'undefined' } })).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1' });
  });

  it('content blocks as given', async () => {
    const { run } = shop();
    const result = await run('echo', { value: { kind: 'blocks' } });
    expect(result.content).toEqual([
      { type: 'text', text: 'see image' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
    ]);
  });

  it.each(['circular', 'bigint'])('a %s value is an internal error, logged', async (kind) => {
    const { run, logger } = shop();
    const result = await run('echo', { value: { kind } });
    expect(result).toMatchObject({ is_error: true, content: 'Internal error in echo. It was logged; do not retry with the same input.' });
    expect(logger.errors).toHaveLength(1);
  });

  it('output longer than maxResultChars is cut with a marker saying how much was left out', async () => {
    const { run } = shop();
    const result = await run('echo', { value: 'y'.repeat(130) });
    expect(result.content).toBe(`${'y'.repeat(50)}\n[truncated: 80 more characters not shown]`);
  });

  it('the container default maxResultChars applies to tools without their own', async () => {
    const container = new ToolContainer({ manifest: ordersManifest, providers: [new OrderTools()], defaults: { maxResultChars: 10 } });
    const [result] = await container.execute([toolUse('t', 'buscar_pedido', { numero: 'A-1001' })]);
    expect(result.content).toBe('{"status":\n[truncated: 34 more characters not shown]');
  });
});

describe('guards', () => {
  /** A write tool `method` of `provider` taking one `@Param() how: string`. */
  const oneToolManifest = (provider: Class, method: string) =>
    defineToolManifest([
      {
        provider,
        method,
        definition: { name: method, description: 'A tool.', input_schema: { type: 'object', properties: { how: { type: 'string' } } } },
        effect: 'write',
        inputClass: FailInput,
        parameters: [{ kind: 'param', property: 'how' }],
      },
    ]);

  it('run with `this` bound to the provider, so they can use injected services', async () => {
    class Owners {
      owner = new Map([['A-1', 'C-1']]);

      @Tool({
        guard(this: Owners, ctx: ToolContext<Session>, input: FailInput) {
          return this.owner.get(input.how) === ctx.auth.customerId;
        },
      })
      cancel(@Param() how: string) {
        return `cancelled ${how}`;
      }
    }
    const container = new ToolContainer<Session>({ manifest: oneToolManifest(Owners, 'cancel'), providers: [new Owners()] });
    const [own] = await container.execute([toolUse('a', 'cancel', { how: 'A-1' })], { auth: { customerId: 'C-1' } });
    const [foreign] = await container.execute([toolUse('b', 'cancel', { how: 'A-1' })], { auth: { customerId: 'C-2' } });
    expect(own.content).toBe('cancelled A-1');
    expect(foreign).toMatchObject({ is_error: true, content: 'Not allowed: cancel refused this call.' });
  });

  it('a guard that throws is an internal error, logged', async () => {
    class Broken {
      @Tool({
        guard() {
          throw new Error('session store down');
        },
      })
      act(@Param() how: string) {
        return how;
      }
    }
    const logger = recordingLogger();
    const container = new ToolContainer({ manifest: oneToolManifest(Broken, 'act'), providers: [new Broken()], logger });
    const [result] = await container.execute([toolUse('c', 'act', { how: 'x' })]);
    expect(result).toMatchObject({ is_error: true, content: 'Internal error in act. It was logged; do not retry with the same input.' });
    expect((logger.errors[0][1] as Error).message).toBe('session store down');
  });
});
