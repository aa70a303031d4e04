import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { checkTranscript, startScriptedServer, text, toolUse, turn, type ScriptedServer, type ScriptedTurn } from '@toolwright/core/testing';

let app: INestApplication | undefined;
let model: ScriptedServer | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'toolwright-e2e-'));

/** The app over real HTTP, its model scripted, its runs in a fresh PGlite directory. */
async function start(turns: ScriptedTurn[]): Promise<string> {
  model = await startScriptedServer({ turns });
  process.env.ANTHROPIC_BASE_URL = model.url;
  process.env.ANTHROPIC_API_KEY = 'test';
  process.env.PGLITE_DIR = dataDir;
  delete process.env.DATABASE_URL;
  const { AppModule } = await import('../src/app.module.js');
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  app = moduleRef.createNestApplication();
  await app.listen(0, '127.0.0.1');
  return app.getUrl();
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user-id': 'u-ana', ...headers },
    body: JSON.stringify(body),
  });
}

afterEach(async () => {
  await app?.close();
  await model?.close();
  app = model = undefined;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('POST /chat', () => {
  it('answers as JSON, after the model corrected a call the tool refused', async () => {
    const url = await start([
      turn('tool_use', toolUse('toolu_01', 'orders_get_status', { numero: '1001' })),
      turn('tool_use', toolUse('toolu_02', 'orders_get_status', { numero: 'A-1001' })),
      turn('end_turn', text('A-1001 has shipped.')),
    ]);
    const response = await post(`${url}/chat`, { message: 'Where is order A-1001?' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ text: 'A-1001 has shipped.', stopReason: 'end_turn', turns: 3 });
    const [, , third] = model!.requests;
    expect(checkTranscript(third.body.messages)).toEqual([]);
    expect(JSON.stringify(third.body.messages)).toContain('"status\\":\\"shipped');
  });

  it('streams the loop as Server-Sent Events on request, done last', async () => {
    const url = await start([
      turn('tool_use', toolUse('toolu_01', 'orders_get_status', { numero: 'A-1001' })),
      turn('end_turn', text('A-1001 has shipped.')),
    ]);
    const response = await post(`${url}/chat`, { message: 'Where is order A-1001?' }, { accept: 'text/event-stream' });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = [...(await response.text()).matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(events).toContain('tool_end');
    expect(events.at(-1)).toBe('done');
  });

  it('refuses a request without a signed-in user', async () => {
    const url = await start([]);
    expect((await post(`${url}/chat`, { message: 'hi' }, { 'x-user-id': '' })).status).toBe(401);
  });
});

describe('approval: a write waits for the user, across a restart', () => {
  it('pauses with 202, survives a restart, runs once when approved, refuses another user and a second decision', async () => {
    const script: ScriptedTurn[] = [
      turn('tool_use', toolUse('toolu_01', 'orders_cancel', { numero: 'A-1002' })),
      turn('end_turn', text('A-1002 is cancelled.')),
    ];
    let url = await start(script.slice(0, 1));
    const paused = await post(`${url}/chat`, { message: 'Cancel A-1002' });
    expect(paused.status).toBe(202);
    const { runId, pending } = await paused.json();
    expect(pending).toEqual([expect.objectContaining({ toolUseId: 'toolu_01', toolName: 'orders_cancel' })]);

    await app!.close();
    await model!.close();
    url = await start(script.slice(1));
    const decisions = { decisions: { toolu_01: { approve: true } } };
    expect((await post(`${url}/runs/${runId}/decisions`, decisions, { 'x-user-id': 'u-bruno' })).status).toBe(404);
    const done = await post(`${url}/runs/${runId}/decisions`, decisions);
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ text: 'A-1002 is cancelled.', stopReason: 'end_turn' });
    expect(JSON.stringify(model!.requests[0].body.messages)).toContain('order A-1002 cancelled');
    expect((await post(`${url}/runs/${runId}/decisions`, decisions)).status).toBe(409);
  });
});
