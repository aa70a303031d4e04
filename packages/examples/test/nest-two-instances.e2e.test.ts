import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { checkTranscript, startScriptedServer, text, toolUse, turn, type ScriptedRequest, type ScriptedServer } from '@toolwright/core/testing';
import { OrdersRepository } from '../src/orders/orders.repository';
import { AppModule } from '../src/nest/app.module';
import { describeOnPostgres } from '../../pg-store/test/support/real-postgres';

// The example app as two instances, on two ports, on one PostgreSQL server (DATABASE_URL): the
// customer's decision may reach either instance, and the approved write runs once.

describeOnPostgres('the NestJS example app: two instances on one PostgreSQL server', (server) => {
  let model: ScriptedServer;
  const apps: INestApplication[] = [];
  let urls: string[] = [];
  let runs = 0;
  // The orders live outside the app, as a database would: both instances see the same ones.
  const orders = new OrdersRepository();

  /** The model: asks to cancel the order the customer names, then says it is done. */
  const reply = (request: ScriptedRequest) => {
    const messages = request.body.messages as Array<{ role: string }>;
    if (messages.some((m) => m.role === 'assistant')) return turn('end_turn', text('Pedido cancelado.'));
    runs += 1;
    return turn('tool_use', toolUse(`toolu_read_${runs}`, 'buscar_pedido', { numero: 'A-1001' }), toolUse(`toolu_cancel_${runs}`, 'cancelar_pedido', { numero: 'A-1001' }));
  };

  beforeAll(async () => {
    model = await startScriptedServer({ turns: Array.from({ length: 20 }, () => reply) });
    for (let i = 0; i < 2; i++) {
      const client = new Anthropic({ baseURL: model.url, apiKey: 'test', maxRetries: 0 });
      const app = await NestFactory.create(AppModule.forRoot({ client, model: 'claude-haiku-5-5', database: { databaseUrl: server().url }, orders }), { logger: false });
      await app.listen(0, '127.0.0.1');
      apps.push(app);
    }
    urls = await Promise.all(apps.map(async (app) => (await app.getUrl()).replace('[::1]', '127.0.0.1')));
    expect(new Set(urls).size).toBe(2);
  }, 120_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    await model?.close();
  });

  async function post(url: string, body: unknown) {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-customer-id': 'C-ana' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function ask(instance: number): Promise<{ runId: string; toolUseId: string }> {
    const asked = await post(`${urls[instance]}/chat`, { message: 'Cancele o pedido A-1001' });
    expect(asked.status).toBe(202);
    const pending = asked.body.pending as Array<{ toolUseId: string }>;
    return { runId: asked.body.runId as string, toolUseId: pending[0].toolUseId };
  }

  it('resumes a run paused on one instance from a decision posted to the other, once', async () => {
    const before = orders.cancellations.length;
    const { runId, toolUseId } = await ask(0);
    const decided = await post(`${urls[1]}/runs/${runId}/decisions`, { decisions: { [toolUseId]: { approve: true } } });
    expect(decided).toEqual({ status: 200, body: { text: 'Pedido cancelado.', stopReason: 'end_turn', turns: 2 } });
    expect(orders.cancellations.length - before).toBe(1);
    // The decision again, to the instance that started the run: it is finished there too.
    const again = await post(`${urls[0]}/runs/${runId}/decisions`, { decisions: { [toolUseId]: { approve: true } } });
    expect(again.status).toBe(409);
    expect(orders.cancellations.length - before).toBe(1);
  });

  it('runs the write once when the same decision reaches both instances at once (5 runs)', async () => {
    for (let round = 0; round < 5; round++) {
      const before = orders.cancellations.length;
      const requestsBefore = model.requests.length;
      const { runId, toolUseId } = await ask(round % 2);
      const decisions = { [toolUseId]: { approve: true } };
      const answers = await Promise.all(urls.map((url) => post(`${url}/runs/${runId}/decisions`, { decisions })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.message).toMatch(/being resumed by another request|is finished|revision/);
      expect(orders.cancellations.length - before).toBe(1);
      // One request to start, one to carry on: the losing instance never reached the model.
      expect(model.requests.length - requestsBefore).toBe(2);
      expect(checkTranscript(model.requests.at(-1)!.body.messages)).toEqual([]);
    }
  }, 120_000);

  it('keeps serving after the server ends its idle connections (pg_terminate_backend)', async () => {
    const admin = new Client(server().connection);
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
         WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND datname = current_database()`,
      );
      // Both instances had connections idle in their pools: each gets a 57P01 it must survive.
      expect(rows.filter((row) => row.ended).length).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.end();
    }
    // Until every pool has heard of its ended connections, a query could be sent on one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const instance of [0, 1]) {
      const before = orders.cancellations.length;
      const { runId, toolUseId } = await ask(instance);
      const decided = await post(`${urls[1 - instance]}/runs/${runId}/decisions`, { decisions: { [toolUseId]: { approve: true } } });
      expect(decided.status).toBe(200);
      expect(orders.cancellations.length - before).toBe(1);
    }
  });
});
