import { Ctx, Tool, ToolContainer, defineToolManifest, type ToolContext } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';
import { EmptyInput, ShopTools, recordingLogger, shopManifest, type Session } from '../fixtures/shop';

function shop() {
  const logger = recordingLogger();
  const container = new ToolContainer<Session>({ manifest: shopManifest, providers: [new ShopTools()], logger });
  return { container, logger };
}

describe('ToolContainer.executeCall: one call outside a batch', () => {
  const auth = { customerId: 'C-1' };
  const inputs: Array<[string, unknown]> = [
    ['place_order', { customer: 'C-1', items: [{ sku: 'SKU-1', qty: 2 }] }],
    ['place_order', { customer: 'C-2', items: [] }],
    ['place_order', { customer: 'C-1', items: [{ sku: 'x', qty: 0 }] }],
    ['fail', { how: 'tool-error' }],
    ['fail', { how: 'type-error' }],
    ['echo', { value: { kind: 'blocks' } }],
    ['nope', {}],
  ];

  it.each(inputs)('answers %s %j exactly as execute answers a batch of one', async (name, input) => {
    const { container } = shop();
    const [batch] = await container.execute([toolUse('toolu_1', name, input)], { auth });
    const single = await container.executeCall({ id: 'toolu_1', name, input }, { auth });
    expect(single.result).toEqual(batch);
  });

  it('hands over the value the method returned on success, and none on failure', async () => {
    const { container } = shop();
    const ok = await container.executeCall({ id: 'toolu_1', name: 'place_order', input: { customer: 'C-1', items: [{ sku: 'SKU-1', qty: 2 }] } }, { auth });
    expect(ok).toMatchObject({ outcome: 'ok', value: { placed: 1, by: 'C-1' } });
    const refused = await container.executeCall({ id: 'toolu_2', name: 'place_order', input: { customer: 'C-2', items: [] } }, { auth });
    expect(refused.outcome).toBe('refused');
    expect(refused).not.toHaveProperty('value');
  });

  it('does not start a call whose signal is already aborted', async () => {
    const tools = new ShopTools();
    const mine = new ToolContainer<Session>({ manifest: shopManifest, providers: [tools], logger: recordingLogger() });
    const aborted = AbortSignal.abort('stop');
    const result = await mine.executeCall({ id: 'toolu_1', name: 'echo', input: {} }, { auth, signal: aborted });
    expect(result).toMatchObject({ outcome: 'cancelled', result: { is_error: true, content: 'Cancelled.' } });
    expect(tools.seen).toEqual([]);
  });
});

describe('ToolContainer.startCall: executeCall cancelled by a function', () => {
  const auth = { customerId: 'C-1' };

  class WaitingTools {
    readonly reasons: unknown[] = [];
    @Tool({ effect: 'read' })
    async wait(@Ctx() ctx: ToolContext): Promise<string> {
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      this.reasons.push(ctx.signal.reason);
      return 'stopped';
    }
  }
  const waiting = defineToolManifest([
    {
      provider: WaitingTools,
      method: 'wait',
      definition: { name: 'wait', description: 'Waits for its signal.', input_schema: { type: 'object', properties: {}, required: [], additionalProperties: false } },
      effect: 'read',
      inputClass: EmptyInput,
      parameters: [{ kind: 'ctx' }],
    },
  ]);

  it('answers as executeCall does', async () => {
    const { container } = shop();
    const input = { customer: 'C-1', items: [{ sku: 'SKU-1', qty: 2 }] };
    const started = container.startCall({ id: 'toolu_1', name: 'place_order', input }, { auth });
    expect(await started.answer).toEqual(await container.executeCall({ id: 'toolu_1', name: 'place_order', input }, { auth }));
  });

  it('aborts the running call\'s ctx.signal with the reason given, and answers it as cancelled', async () => {
    const tools = new WaitingTools();
    const container = new ToolContainer({ manifest: waiting, providers: [tools], logger: recordingLogger() });
    const started = container.startCall({ id: 'toolu_1', name: 'wait', input: {} });
    await new Promise((resolve) => setTimeout(resolve, 5));
    started.cancel('the client cancelled');
    expect(await started.answer).toMatchObject({ outcome: 'cancelled', result: { is_error: true } });
    expect(tools.reasons).toEqual(['the client cancelled']);
  });
});

describe('ToolContainer.describe', () => {
  class HintedTools {
    @Tool({ effect: 'write', title: 'Archive a note', destructive: false, idempotent: true, openWorld: false })
    archive() {
      return 'ok';
    }
  }
  const manifest = defineToolManifest([
    {
      provider: HintedTools,
      method: 'archive',
      definition: { name: 'archive', description: 'Archives.', input_schema: { type: 'object', properties: {}, required: [], additionalProperties: false } },
      effect: 'write',
      inputClass: EmptyInput,
      parameters: [],
      outputSchema: { type: 'object', properties: { id: { type: 'string' } } },
    },
  ]);

  it('lists each tool with its effect, the @Tool hints and the manifest outputSchema', () => {
    const container = new ToolContainer({ manifest, providers: [new HintedTools()] });
    expect(container.describe()).toEqual([
      {
        name: 'archive',
        definition: manifest.entries[0].definition,
        effect: 'write',
        title: 'Archive a note',
        destructive: false,
        idempotent: true,
        openWorld: false,
        outputSchema: { type: 'object', properties: { id: { type: 'string' } } },
      },
    ]);
    const copy = container.describe()[0];
    copy.definition.name = 'changed';
    expect(container.describe()[0].definition.name).toBe('archive');
  });

  it('leaves undeclared hints undefined', () => {
    const [placeOrder] = shop().container.describe();
    expect(placeOrder).toMatchObject({ name: 'place_order', effect: 'write' });
    expect(placeOrder.title).toBeUndefined();
    expect(placeOrder.destructive).toBeUndefined();
    expect(placeOrder.outputSchema).toBeUndefined();
  });
});
