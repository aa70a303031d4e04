import 'reflect-metadata';
import { ToolContainer, type ToolEvent, type ToolLogger } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';
import { OrdersRepository } from '../src/orders/orders.repository';
import { OrdersTools } from '../src/orders/orders.tools';
import type { Session } from '../src/orders/session';
import { toolManifest } from '../src/tools.generated';

function orders(latencyMs = 0) {
  const repo = new OrdersRepository(latencyMs);
  const errors: unknown[][] = [];
  const logger: ToolLogger = { error: (...args) => void errors.push(args), warn: () => undefined };
  const events: ToolEvent[] = [];
  const container = new ToolContainer<Session>({
    manifest: toolManifest,
    providers: [new OrdersTools(repo)],
    logger,
    onEvent: (event) => void events.push(event),
  });
  return { repo, container, errors, events };
}

const ana = { customerId: 'C-ana' };

describe("the lesson's exercises, done with toolwright", () => {
  it('exercise 1: cancelar_pedido cancels only orders of the session, whatever the input says', async () => {
    const { repo, container } = orders();
    const [foreign, own] = await container.execute(
      [toolUse('t1', 'cancelar_pedido', { numero: 'A-1002' }), toolUse('t2', 'cancelar_pedido', { numero: 'A-1001' })],
      { auth: ana, onWriteFailure: 'continue' },
    );
    expect(foreign).toMatchObject({ is_error: true, content: 'Not allowed: cancelar_pedido refused this call.' });
    expect(JSON.parse(own.content as string)).toEqual({ numero: 'A-1001', status: 'cancelado', canceladoPor: 'C-ana' });
    expect((await repo.find('A-1002'))?.status).toBe('entregue');
  });

  it('exercise 2: reads run in parallel and results keep the tool_use order', async () => {
    const { container, events } = orders(30);
    const results = await container.execute([
      toolUse('toolu_04a', 'buscar_pedido', { numero: 'A-1001' }),
      toolUse('toolu_04b', 'buscar_pedido', { numero: 'A-1002' }),
    ]);
    expect(results.map((r) => r.tool_use_id)).toEqual(['toolu_04a', 'toolu_04b']);
    const starts = events.filter((e) => e.type === 'call_start');
    const firstEnd = events.findIndex((e) => e.type === 'call_end');
    // Both calls started before either finished: they overlapped.
    expect(starts).toHaveLength(2);
    expect(events.indexOf(starts[1])).toBeLessThan(firstEnd);
  });

  it('exercise 3: a network failure is a generic is_error for the model, the stack goes to the log', async () => {
    const { repo, container, errors } = orders();
    repo.networkDown = true;
    const [result] = await container.execute([toolUse('toolu_07', 'buscar_pedido', { numero: 'A-1001' })]);
    expect(result).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_07',
      is_error: true,
      content: 'Internal error in buscar_pedido. It was logged; do not retry with the same input.',
    });
    expect(JSON.stringify(result)).not.toContain('orders-db');
    expect((errors[0][1] as Error).stack).toContain('ECONNRESET');
  });

  it('the generated schema matches the lesson: one required string in the format A-1234', () => {
    const { container } = orders();
    expect(container.definitions()[0]).toMatchObject({
      name: 'buscar_pedido',
      input_schema: {
        type: 'object',
        properties: { numero: { type: 'string', description: 'Número do pedido no formato A-1234.', pattern: '^A-\\d{4}$' } },
        required: ['numero'],
        additionalProperties: false,
      },
      input_examples: [{ numero: 'A-1001' }],
    });
  });
});
