import 'reflect-metadata';
import { InMemoryRunStore } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { closeExampleApps, startExampleApp } from './fixtures/example-app';

// What the example app's POST /runs/:id/decisions (JSON and Server-Sent Events) tells a browser
// when the store or the Messages API fails: what it can do, never the database's or the API's own
// words (a host, a port, a database user, an upstream error body), which go to the app's log.

/** An in-memory store whose driver fails the way `pg` does when the database host is down. */
class DownStore extends InMemoryRunStore {
  down = new Set<string>();
  private fail(op: string): void {
    if (this.down.has(op)) throw new Error('connect ECONNREFUSED 10.20.30.40:5432 (pg-primary.internal.corp, user toolwright_app)');
  }
  override async load(runId: string) {
    this.fail('load');
    return super.load(runId);
  }
  override async recordResult(...args: Parameters<InMemoryRunStore['recordResult']>) {
    this.fail('recordResult');
    return super.recordResult(...args);
  }
}

afterEach(() => closeExampleApps());

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-customer-id': 'C-ana', ...headers }, body: JSON.stringify(body) });
}

const INTERNAL = /10\.20\.30\.40|internal\.corp|toolwright_app|ECONNREFUSED|resumeToolLoop|authentication_error|sk-ant/;

async function pausedRun(store: DownStore, second: Parameters<typeof startExampleApp>[0][number]) {
  const { url } = await startExampleApp([turn('tool_use', text('Vou cancelar.'), toolUse('toolu_02', 'cancelar_pedido', { numero: 'A-1001' })), second], { approval: 'writes', store });
  const paused = (await (await post(`${url}/chat`, { message: 'Cancele o A-1001' })).json()) as { runId: string };
  expect(paused.runId).toEqual(expect.any(String));
  return { url, decisions: `${url}/runs/${paused.runId}/decisions` };
}

describe('the example app keeps internal details off HTTP', () => {
  it('a store outage answers the decisions POST 503 without the driver error (host, port, db user)', async () => {
    const store = new DownStore();
    const { decisions } = await pausedRun(store, turn('end_turn', text('ok')));
    store.down.add('load');

    const response = await post(decisions, { decisions: { toolu_02: { approve: true } } });
    const body = await response.text();
    expect(response.status).toBe(503);
    expect(body).not.toMatch(INTERNAL);
    expect(JSON.parse(body)).toMatchObject({ message: 'The run store did not answer. Nothing was lost: send the same request again in a moment.' });
  });

  it('a store outage mid-stream ends the SSE with done, without the driver error', async () => {
    const store = new DownStore();
    const { decisions } = await pausedRun(store, turn('end_turn', text('ok')));
    store.down.add('recordResult');

    const response = await post(decisions, { decisions: { toolu_02: { approve: true } } }, { accept: 'text/event-stream' });
    expect(response.status).toBe(200);
    const body = await response.text();
    const done = body.split('\n\n').find((frame) => frame.startsWith('event: done'))!;
    expect(done).toMatch(/"stopReason":"error"/);
    expect(done).not.toMatch(INTERNAL);
  });

  it("a Messages API failure mid-stream ends the SSE with done, without the upstream error body (the JSON path answers a bare 500)", async () => {
    const store = new DownStore();
    const upstream = { status: 401, message: 'invalid x-api-key sk-ant-api03-…' };
    const { decisions } = await pausedRun(store, upstream);

    const response = await post(decisions, { decisions: { toolu_02: { approve: true } } }, { accept: 'text/event-stream' });
    const body = await response.text();
    const done = body.split('\n\n').find((frame) => frame.startsWith('event: done'))!;
    expect(done).toMatch(/"stopReason":"error"/);
    expect(done).not.toMatch(INTERNAL);
  });
});
