// Starts the built app (`node dist/main`) against the scripted server and asks POST /chat over
// real HTTP, as a deployment would run it.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { checkTranscript, startScriptedServer } from '@toolwright/core/testing';

const { CHAT_SCRIPT } = await import(new URL('../dist/script.js', import.meta.url).href);
const server = await startScriptedServer({ turns: CHAT_SCRIPT });
const port = await freePort();
const app = spawn(process.execPath, ['dist/main'], {
  env: { ...process.env, PORT: String(port), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
try {
  const response = await postWhenListening(`http://127.0.0.1:${port}/chat`, { prompt: 'Where is order A-1001?' });
  const body = await response.json();
  if (response.status !== 201 || body.text !== 'A-1001 is on its way (5 messages).' || checkTranscript(body.messages).length > 0) {
    throw new Error(`POST /chat answered ${response.status} ${JSON.stringify(body)}`);
  }
  console.log(`POST /chat: ${body.text}`);
} finally {
  app.kill();
  await server.close();
}

async function postWhenListening(url, body) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (app.exitCode !== null) throw new Error(`node dist/main exited with ${app.exitCode}`);
    try {
      return await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}
