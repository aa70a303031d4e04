import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { checkTranscript, startScriptedServer, text, toolUse, turn, type ScriptedServer } from '@toolwright/core/testing';
import { OrdersRepository } from '../src/orders/orders.repository';
import { AppModule } from '../src/nest/app.module';

// The approval flow of the example app on its default store (PGlite on disk), restarted between
// the customer's request and their decision, as a deploy or a crash would; a run is decided
// only by the customer who started it.

const dataDir = mkdtempSync(join(tmpdir(), 'toolwright-nest-approval-'));
let server: ScriptedServer;
let app: INestApplication | undefined;

afterAll(async () => {
  await app?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** One instance of the app: its own Nest container and store object, on the shared database directory. */
async function startApp(orders: OrdersRepository): Promise<string> {
  const client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
  app = await NestFactory.create(AppModule.forRoot({ client, model: 'claude-haiku-5-5', database: { dataDir }, orders }), { logger: false });
  await app.listen(0, '127.0.0.1');
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}

async function post(url: string, body: unknown, customer = 'C-ana') {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-customer-id': customer }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the NestJS example app: approval across a restart', () => {
  it('answers 202 with the pending cancellation, and after a restart runs the approved write exactly once, for its customer only', async () => {
    server = await startScriptedServer({
      turns: [
        turn('tool_use', toolUse('toolu_read', 'buscar_pedido', { numero: 'A-1001' }), toolUse('toolu_cancel', 'cancelar_pedido', { numero: 'A-1001' })),
        turn('end_turn', text('Pedido A-1001 cancelado.')),
      ],
    });
    // The orders live outside the app, as a database would: both instances see the same ones.
    const orders = new OrdersRepository();

    let url = await startApp(orders);
    const asked = await post(`${url}/chat`, { message: 'Cancele o pedido A-1001' });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({
      runId: expect.any(String),
      pending: [{ toolUseId: 'toolu_cancel', toolName: 'cancelar_pedido', input: { numero: 'A-1001' }, effect: 'write' }],
      text: 'Waiting for approval: cancelar_pedido.',
    });
    expect(orders.cancellations).toEqual([]);

    await app!.close();
    url = await startApp(orders);

    const decisions = { toolu_cancel: { approve: true } };
    // Another customer who has the run id is told what an unknown run id gets, and nothing runs.
    const stranger = await post(`${url}/runs/${asked.body.runId}/decisions`, { decisions }, 'C-bruno');
    const unknown = await post(`${url}/runs/no-such-run/decisions`, { decisions }, 'C-bruno');
    expect(stranger).toEqual({ status: 404, body: { statusCode: 404, error: 'Not Found', message: `There is no run ${JSON.stringify(asked.body.runId)} for this customer.` } });
    expect(unknown).toEqual({ status: 404, body: { ...stranger.body, message: 'There is no run "no-such-run" for this customer.' } });
    // An id no store can hold (NUL) is an unknown run too, not a database error.
    const nul = await post(`${url}/runs/run%00x/decisions`, { decisions });
    expect(nul).toEqual({ status: 404, body: { ...stranger.body, message: 'There is no run "run\\u0000x" for this customer.' } });
    expect(orders.cancellations).toEqual([]);
    expect(server.requests).toHaveLength(1);

    const decided = await post(`${url}/runs/${asked.body.runId}/decisions`, { decisions });
    expect(decided).toEqual({ status: 200, body: { text: 'Pedido A-1001 cancelado.', stopReason: 'end_turn', turns: 2 } });
    expect(orders.cancellations).toEqual(['A-1001']);
    const resent = server.requests[1].body.messages;
    expect(checkTranscript(resent)).toEqual([]);
    expect(resent.at(-1)).toMatchObject({
      role: 'user',
      content: [
        { tool_use_id: 'toolu_read', content: '{"status":"enviado","previsao":"2026-10-20"}' },
        { tool_use_id: 'toolu_cancel', content: '{"numero":"A-1001","status":"cancelado","canceladoPor":"C-ana"}' },
      ],
    });

    // The same POST again (a double click, a retry): the run is finished, nothing runs.
    const repeated = await post(`${url}/runs/${asked.body.runId}/decisions`, { decisions });
    expect(repeated.status).toBe(409);
    expect(repeated.body.message).toMatch(/is finished/);
    expect(orders.cancellations).toEqual(['A-1001']);
    expect(server.requests).toHaveLength(2);
    // Nor does the finished run tell another customer that it exists.
    expect((await post(`${url}/runs/${asked.body.runId}/decisions`, { decisions }, 'C-bruno')).status).toBe(404);
  }, 180_000);
});
