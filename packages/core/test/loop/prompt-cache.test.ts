import 'reflect-metadata';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { Param, Tool, ToolContainer, defineToolManifest, runToolLoop, type MessagesClient } from '@toolwright/core';
import { text } from '@toolwright/core/testing';
import { SkuInput } from './fixtures/shop-tools';

// Prompt caching on the smallest tool set: one tool, so its definition is the whole tools prefix.

class Stock {
  @Tool({ name: 'ler_estoque', effect: 'read' })
  async read(@Param() sku: string) {
    return { sku, quantidade: 3 };
  }
}

const manifest = defineToolManifest([
  {
    provider: Stock,
    method: 'read',
    definition: {
      name: 'ler_estoque',
      description: 'Consulta o estoque de um produto. Não altera nada. Retorna a quantidade.',
      input_schema: { type: 'object', properties: { sku: { type: 'string', description: 'O código do produto.' } }, required: ['sku'], additionalProperties: false },
    },
    effect: 'read',
    inputClass: SkuInput,
    parameters: [{ kind: 'param', property: 'sku' }],
  },
]);

type Body = { tools: Array<{ name?: string; cache_control?: unknown }>; messages: MessageParam[] };

test('a container with a single tool: that tool carries the breakpoint that caches the definitions', async () => {
  const bodies: Body[] = [];
  const client = {
    messages: {
      create: async (body: Body) => {
        bodies.push(structuredClone(body));
        return { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-haiku-5-5', content: [text('pronto')], stop_reason: 'end_turn', stop_sequence: null, container: null, usage: { input_tokens: 1, output_tokens: 1 } };
      },
    },
  } as unknown as MessagesClient;
  const tools = new ToolContainer({ manifest, providers: [new Stock()] });

  await runToolLoop({ client, model: 'claude-haiku-5-5', prompt: 'Tem estoque?', tools });

  expect(bodies[0].tools).toEqual([expect.objectContaining({ name: 'ler_estoque', cache_control: { type: 'ephemeral' } })]);
});
