import { ToolError, type ToolEvent } from '@toolwright/core';
import { GUARDED_TIMEOUT_MS, INTERNAL, Probe, blockFor, probeContainer, use, type Script } from './probe';

// One case per defect of issue 12 that the executor owns. Each failed on the code before the fix.

const ok = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'done' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Proxy every one of whose traps throws. */
function trap(): object {
  const explode = () => {
    throw new Error('a trap went off');
  };
  return new Proxy({}, { get: explode, has: explode, ownKeys: explode, getPrototypeOf: explode, getOwnPropertyDescriptor: explode });
}

describe('a thrown value whose inspection throws fails its own call alone', () => {
  const thrown: Array<[string, () => unknown]> = [
    ['a Proxy whose traps throw', trap],
    [
      'an object posing as a ToolError whose content getter throws',
      () =>
        Object.create(ToolError.prototype, {
          content: {
            get() {
              throw new Error('content is not readable');
            },
          },
        }),
    ],
    ['a fake ToolError (its prototype, not its constructor)', () => Object.assign(Object.create(ToolError.prototype), { content: 'pretend' })],
    [
      'an object whose toString and Symbol.toPrimitive throw, to a logger that formats it',
      () => ({
        toString() {
          throw new Error('no string');
        },
        [Symbol.toPrimitive]() {
          throw new Error('no primitive');
        },
      }),
    ],
  ];

  it.each(thrown)('%s: the completed write before it stays ok, the read after it runs', async (_, make) => {
    const probe = new Probe({
      bad: () => {
        throw make();
      },
    });
    const container = probeContainer(probe, {
      logger: { error: (message, ...details) => void probe.logged.push({ level: 'error', message: `${message} ${details.join(' ')}`, details }), warn: () => undefined },
    });
    const results = await container.execute([use('w', 'probe_write'), use('bad', 'probe_read'), use('r', 'probe_read')], { auth: probe });
    expect(results).toEqual([
      ok('w'),
      { type: 'tool_result', tool_use_id: 'bad', is_error: true, content: INTERNAL('probe_read') },
      ok('r'),
    ]);
  });

  it('after execute resolves, nothing of its batch starts', async () => {
    const probe = new Probe({
      bad: () => {
        throw trap();
      },
      slow: () => sleep(20).then(() => 'done'),
    });
    const ids = ['bad', 'slow', 'r1', 'r2', 'r3'];
    const results = await probeContainer(probe).execute(
      ids.map((id) => use(id, 'probe_read')),
      { auth: probe, maxConcurrency: 2 },
    );
    const answeredAt = performance.now();
    await sleep(60);
    expect(probe.ran.filter((r) => r.at > answeredAt)).toEqual([]);
    expect(results.map((r) => r.content)).toEqual([INTERNAL('probe_read'), 'done', 'done', 'done', 'done']);
  });
});

describe('a call cancelled while its tool runs', () => {
  it('is logged, not thrown, when the tool then rejects with a value whose name cannot be read', async () => {
    const controller = new AbortController();
    let reject: (error: unknown) => void = () => undefined;
    const probe = new Probe({ t: () => new Promise((_, fail) => (reject = fail)) });
    const pending = probeContainer(probe).execute([use('t', 'probe_read')], { auth: probe, signal: controller.signal });
    await sleep(5);
    controller.abort();
    const [result] = await pending;
    expect(result).toMatchObject({ tool_use_id: 't', is_error: true });
    reject(trap());
    await sleep(5);
    expect(probe.logged.map((entry) => [entry.level, entry.message])).toEqual([['warn', 'toolwright: probe_read (t) failed after it was abandoned:']]);
  });
});

describe('what reaches the model is capped', () => {
  const run = async (script: Script, options: Parameters<typeof probeContainer>[1] = {}) => {
    const probe = new Probe(script);
    const [result] = await probeContainer(probe, options).execute([use('t', 'probe_read')], { auth: probe });
    return { result, probe };
  };
  const tenMegabytes = 'e'.repeat(10_000_000);

  it('a 10 MB ToolError message is cut at maxResultChars with a marker', async () => {
    const { result } = await run({
      t: () => {
        throw new ToolError(tenMegabytes);
      },
    });
    expect(result.is_error).toBe(true);
    expect(result.content).toBe(`${'e'.repeat(20_000)}\n[truncated: 9980000 more characters not shown]`);
  });

  it('ToolError blocks share the same budget', async () => {
    const { result } = await run({
      t: () => {
        throw new ToolError([{ type: 'text', text: tenMegabytes }]);
      },
    });
    expect(result.content).toEqual([{ type: 'text', text: `${'e'.repeat(20_000)}\n[truncated: 9980000 more characters not shown]` }]);
  });

  it.each<[string, unknown]>([
    ['a text block without text', [{ type: 'text', text: 5 }]],
    ['an image without a source', [{ type: 'image', source: 'x' }]],
    ['a document whose base64 source has no data', [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf' } }]],
    ['a search result whose content is not blocks', [{ type: 'search_result', source: 's', title: 't', content: 'x' }]],
  ])('returned content blocks that are malformed (%s) are an internal error, logged', async (_, blocks) => {
    const { result, probe } = await run({ t: () => blocks });
    expect(result).toEqual({ type: 'tool_result', tool_use_id: 't', is_error: true, content: INTERNAL('probe_read') });
    expect(probe.logged[0].message).toBe('toolwright: tool probe_read (t) failed (its result could not be sent):');
  });

  it('a ToolError with malformed blocks is an internal error', async () => {
    const { result } = await run({
      t: () => {
        throw new ToolError([{ type: 'image' }] as never);
      },
    });
    expect(result.content).toBe(INTERNAL('probe_read'));
  });

  it('returned blocks are copied: a getter that throws cannot break the reply later', async () => {
    const block = {
      type: 'text',
      get text(): string {
        throw new Error('read me once, shame on you');
      },
    };
    const { result } = await run({ t: () => [block] });
    expect(result.content).toBe(INTERNAL('probe_read'));
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('images and documents are capped by count: the rest become one line', async () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } };
    const { result } = await run({ t: () => Array.from({ length: 23 }, () => image) }, { defaults: { maxMediaBlocks: 20 } });
    const content = result.content as Array<{ type: string; text?: string }>;
    expect(content).toHaveLength(21);
    expect(content.slice(0, 20).every((b) => b.type === 'image')).toBe(true);
    expect(content[20]).toEqual({ type: 'text', text: '[3 more images or documents not shown: at most 20 per result]' });
  });

  it('images and documents are capped by size: one that does not fit is replaced by a line', async () => {
    const small = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(100) } };
    const big = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'B'.repeat(5_000) } };
    const { result } = await run({ t: () => [small, big, small] }, { defaults: { maxMediaChars: 1_000 } });
    const content = result.content as Array<{ type: string; text?: string }>;
    expect(content.map((b) => b.type)).toEqual(['image', 'text', 'image']);
    // Sizes are the blocks as JSON: 5,087 characters for the document, 178 spent on the first image.
    expect(content[1].text).toBe('[document not shown: 5,087 characters, over the 822 left for this result]');
  });

  it('an unknown tool name of 1 MB is not echoed whole', async () => {
    const probe = new Probe();
    const [result] = await probeContainer(probe).execute([use('t', 'n'.repeat(1_000_000))]);
    expect(result.content).toBe(
      `Unknown tool "${'n'.repeat(64)}…(1000000 chars)". Available tools: probe_read, probe_write, probe_slow_guard.`,
    );
  });

  it.each(['halt', 'continue'] as const)("a 1 MB name in 1,000 calls still gives a reply JSON can serialize ('%s')", async (onWriteFailure) => {
    const name = 'n'.repeat(1_000_000);
    const probe = new Probe();
    const calls = Array.from({ length: 1_000 }, (_, i) => use(`t${i}`, name));
    const results = await probeContainer(probe).execute(calls, { onWriteFailure });
    expect(results).toHaveLength(1_000);
    expect(JSON.stringify(results).length).toBeLessThan(1_000 * 300);
  });

  it("validation messages are cut at the container's maxResultChars too", async () => {
    const probe = new Probe();
    const container = probeContainer(probe, { defaults: { maxResultChars: 40 } });
    const [result] = await container.execute([use('t', 'probe_read', { key: 7, extra: 'x'.repeat(5_000) })]);
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/^Invalid input for probe_read:\n.{0,40}\n\[truncated: \d+ more characters not shown\]$/s);
    expect((result.content as string).length).toBeLessThan(100);
  });
});

describe('execute never rejects for anything in content, a logger or a listener', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'tool_use'],
    ['an object', { type: 'tool_use' }],
  ])('content that is %s has no tool_use to answer', async (_, content) => {
    await expect(probeContainer(new Probe()).execute(content as never)).resolves.toEqual([]);
  });

  it('null and non-object blocks are passed over; the tool_use blocks around them are answered', async () => {
    const probe = new Probe();
    const results = await probeContainer(probe).execute([null, use('a', 'probe_read'), undefined, 7, use('b', 'probe_write')] as never, { auth: probe });
    expect(results).toEqual([ok('a'), ok('b')]);
  });

  describe.each(['halt', 'continue'] as const)("a name that is not a string, under '%s'", (onWriteFailure) => {
    it.each<[string, unknown, string]>([
      ['a Symbol', Symbol('probe_read'), 'a symbol'],
      ['a number', 42, 'a number'],
      ['an object', { toString: () => 'probe_read' }, 'an object'],
    ])('%s is an unknown tool, which may write', async (_, name, described) => {
      const probe = new Probe();
      const results = await probeContainer(probe).execute([use('a', name), use('b', 'probe_read')], { auth: probe, onWriteFailure });
      expect(results[0]).toEqual({
        type: 'tool_result',
        tool_use_id: 'a',
        is_error: true,
        content: `Invalid tool_use: its name is ${described}, not a string. Available tools: probe_read, probe_write, probe_slow_guard.`,
      });
      expect(results[1]).toEqual(
        onWriteFailure === 'continue'
          ? ok('b')
          : { type: 'tool_result', tool_use_id: 'b', is_error: true, content: `Not executed: an earlier call in this batch (${described}, a) failed.` },
      );
    });

    it.each<[string, unknown, string]>([
      ['a Symbol', Symbol('id'), 'a symbol'],
      ['a number', 7, 'a number'],
      ['an object', { id: 'x' }, 'an object'],
    ])('an id that is %s: the call is refused without running, the id kept as it came', async (_, id, described) => {
      const probe = new Probe();
      const results = await probeContainer(probe).execute([use(id, 'probe_write'), use('b', 'probe_read')], { auth: probe, onWriteFailure });
      expect(results[0]).toEqual({ type: 'tool_result', tool_use_id: id, is_error: true, content: `Invalid tool_use: its id is ${described}, not a string; the call was not run.` });
      expect(probe.ran.map((r) => r.id)).toEqual(onWriteFailure === 'continue' ? ['b'] : []);
    });
  });

  it('a logger that throws loses its line; the results stay what they were', async () => {
    const script: Script = {
      bad: () => {
        throw new TypeError('boom');
      },
    };
    const content = [use('w', 'probe_write'), use('bad', 'probe_read'), use('r', 'probe_read')];
    const quiet = new Probe(script);
    const expected = await probeContainer(quiet).execute(content, { auth: quiet });

    const probe = new Probe(script);
    const throwing = () => {
      throw new Error('log transport closed');
    };
    const results = await probeContainer(probe, { logger: { error: throwing, warn: throwing } }).execute(content, {
      auth: probe,
      onEvent: () => {
        throw new Error('dashboard is down');
      },
    });
    expect(results).toEqual(expected);
    expect(results[1].content).toBe(INTERNAL('probe_read'));
  });

  it('a logger without methods is no reason to reject either', async () => {
    const probe = new Probe({
      t: () => {
        throw new Error('x');
      },
    });
    const [result] = await probeContainer(probe, { logger: {} as never }).execute([use('t', 'probe_read')], { auth: probe });
    expect(result.content).toBe(INTERNAL('probe_read'));
  });
});

describe('timeouts see synchronous overruns', () => {
  it(`a guard that blocks the event loop past timeoutMs (${GUARDED_TIMEOUT_MS} ms) times the call out, and its method never runs`, async () => {
    const probe = new Probe();
    const [result] = await probeContainer(probe).execute([use('t', 'probe_slow_guard')], { auth: probe });
    expect(result).toEqual({
      type: 'tool_result',
      tool_use_id: 't',
      is_error: true,
      content: `Timed out after ${GUARDED_TIMEOUT_MS} ms. This write may or may not have taken effect; check before retrying.`,
    });
    expect(probe.ran).toEqual([]);
  });

  it('a method that blocks past its deadline and returns keeps its result: the write is done', async () => {
    const probe = new Probe({
      t: () => {
        blockFor(GUARDED_TIMEOUT_MS + 50);
        return 'done';
      },
    });
    const container = probeContainer(probe, { defaults: { timeoutMs: GUARDED_TIMEOUT_MS } });
    expect(await container.execute([use('t', 'probe_write')], { auth: probe })).toEqual([ok('t')]);
  });
});

describe('duplicate tool_use ids in one message', () => {
  it('refuse the whole message before anything runs; every block is answered, in order, saying why', async () => {
    const probe = new Probe();
    const events: ToolEvent[] = [];
    const results = await probeContainer(probe).execute([use('x', 'probe_write'), use('y', 'probe_read'), use('x', 'probe_write')], {
      auth: probe,
      onEvent: (e) => events.push(e),
    });
    const why = 'Not executed: tool_use id "x" appears 2 times in this message; ids must be unique, so no call of it was run.';
    expect(results).toEqual(['x', 'y', 'x'].map((id) => ({ type: 'tool_result', tool_use_id: id, is_error: true, content: why })));
    expect(probe.ran).toEqual([]);
    expect(events.map((e) => e.type === 'call_skipped' && e.reason)).toEqual(['duplicate_id', 'duplicate_id', 'duplicate_id']);
  });
});
