import { Test, TestingModule } from '@nestjs/testing';
import { INestApplication } from '@nestjs/common';
import { checkTranscript, startScriptedServer, type ScriptedServer } from '@toolwright/core/testing';
import { CHAT_SCRIPT } from '../src/script.js';

describe('POST /chat (e2e)', () => {
  let app: INestApplication;
  let server: ScriptedServer;

  beforeEach(async () => {
    server = await startScriptedServer({ turns: CHAT_SCRIPT });
    process.env.ANTHROPIC_BASE_URL = server.url;
    process.env.ANTHROPIC_API_KEY = 'test';
    // Imported after the environment is set: the module builds its client when it loads.
    const { AppModule } = await import('../src/app.module.js');
    const moduleFixture: TestingModule = await Test.createTestingModule({ imports: [AppModule] }).compile();
    app = moduleFixture.createNestApplication();
    await app.listen(0, '127.0.0.1');
  });

  it('runs the tools loop over HTTP', async () => {
    const response = await fetch(`${await app.getUrl()}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Where is order A-1001?' }),
    });
    const body = await response.json();
    expect(response.status).toBe(201);
    expect(body.text).toBe('A-1001 is on its way (5 messages).');
    expect(checkTranscript(body.messages)).toEqual([]);
  });

  afterEach(async () => {
    await app.close();
    await server.close();
  });
});
