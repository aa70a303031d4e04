import Anthropic from '@anthropic-ai/sdk';
import { ToolContainer } from '@toolwright/core';
import { OrderTools, buscarPedidoDefinition, ordersManifest } from '../fixtures/orders';

describe('definitions()', () => {
  const container = new ToolContainer({ manifest: ordersManifest, providers: [new OrderTools()] });

  it('returns the manifest definitions, ready for messages.create', () => {
    expect(container.definitions()).toEqual([buscarPedidoDefinition]);
  });

  it('returns a fresh copy: mutating it does not change what the next caller gets', () => {
    const first = container.definitions();
    (first[0].input_schema.required as string[]).push('extra');
    first[0].description = 'changed';
    expect(container.definitions()).toEqual([buscarPedidoDefinition]);
  });

  it('is assignable to client.messages.create({ tools }), with a mutable required array (compile-time)', () => {
    type CreateParams = Parameters<Anthropic['messages']['create']>[0];
    const tools: NonNullable<CreateParams['tools']> = container.definitions();
    const required: string[] = container.definitions()[0].input_schema.required ?? [];
    required.push('compiles');
    expect(tools).toHaveLength(1);
  });
});
