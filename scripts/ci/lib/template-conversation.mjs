// A conversation with a project create-toolwright wrote, as its README tells a person to have one.
// Copied into the project (so its imports resolve from the project's node_modules) and run there
// after `npm run build`:  node .ci-conversation.mjs <node|nest|mcp>
// Exits non-zero, saying what differed, when the conversation does not go as the template promises.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer, text, toolUse, turn } from '@toolwright/core/testing';

const template = process.argv[2];
const withoutKey = { ...process.env };
delete withoutKey.ANTHROPIC_API_KEY;
delete withoutKey.ANTHROPIC_BASE_URL;

function expectThat(condition, what) {
  if (!condition) throw new Error(`conversation (${template}): ${what}`);
  console.log(`  ok: ${what}`);
}

/** Runs a command to its end; resolves with its stdout. */
function output(command, args, env, timeoutMs = 300_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => void (out += chunk));
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      process.stdout.write(out.replace(/^/gm, '  > '));
      if (code === 0) resolve(out);
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}`));
    });
  });
}

async function node() {
  const scripted = await output('npm', ['start', '--silent'], withoutKey);
  expectThat(scripted.includes('(scripted model) The tool answered: {"status":"shipped","eta":"2026-10-20"}'), 'npm start without ANTHROPIC_API_KEY answers from the scripted model');
  // With a key the app builds its client from the environment: point it at a local server.
  const api = await startScriptedServer({
    turns: [turn('tool_use', toolUse('toolu_01', 'orders_get_status', { numero: 'A-1002' })), turn('end_turn', text('A-1002 was delivered.'))],
  });
  try {
    const real = await output('node', ['dist/main.js', 'Where is order A-1002?'], { ...withoutKey, ANTHROPIC_API_KEY: 'sk-ci', ANTHROPIC_BASE_URL: api.url });
    expectThat(real.trim() === 'A-1002 was delivered.', 'with ANTHROPIC_API_KEY it talks to the API the SDK is configured for');
    // x-api-key, or (newer SDKs) authorization: Bearer.
    const { 'x-api-key': apiKey, authorization } = api.requests[0].headers;
    expectThat(apiKey === 'sk-ci' || authorization === 'Bearer sk-ci', 'the request carries the key');
    expectThat(JSON.stringify(api.requests[1].body.messages).includes('delivered'), 'the tool result reached the API');
  } finally {
    await api.close();
  }
}

async function nest() {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolwright-template-nest-'));
  const app = spawn('node', ['dist/main.js'], { env: { ...withoutKey, PORT: '0', PGLITE_DIR: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('the app did not print its URL within 300 s')), 300_000);
      app.stdout.on('data', (chunk) => {
        out += chunk;
        const found = /POST (http:\/\/\S+)\/chat/.exec(out);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      });
      app.on('close', (code) => reject(new Error(`the app exited ${code}:\n${out}`)));
    });
    const post = (path, body, headers = {}) =>
      fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-user-id': 'u-ana', ...headers }, body: JSON.stringify(body) });
    const json = await post('/chat', { message: 'Where is order A-1001?' });
    const answer = await json.json();
    expectThat(json.status === 200 && answer.text.includes('"status":"shipped"'), `POST /chat answers as JSON (${json.status} ${JSON.stringify(answer)})`);
    const sse = await post('/chat', { message: 'Where is order A-1001?' }, { accept: 'text/event-stream' });
    const events = [...(await sse.text()).matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expectThat(events.includes('tool_end') && events.at(-1) === 'done', `POST /chat streams Server-Sent Events, done last (${events.join(' ')})`);
    const paused = await post('/chat', { message: 'Cancel order A-1002' });
    const run = await paused.json();
    expectThat(paused.status === 202 && run.pending?.[0]?.toolName === 'orders_cancel', `a write waits for approval (${paused.status} ${JSON.stringify(run)})`);
    const decisions = { decisions: { [run.pending[0].toolUseId]: { approve: true } } };
    const stranger = await post(`/runs/${run.runId}/decisions`, decisions, { 'x-user-id': 'u-bruno' });
    expectThat(stranger.status === 404, `another user's decision is answered 404 (${stranger.status})`);
    const decided = await post(`/runs/${run.runId}/decisions`, decisions);
    const done = await decided.json();
    expectThat(decided.status === 200 && done.text.includes('order A-1002 cancelled'), `the approved write runs (${decided.status} ${JSON.stringify(done)})`);
  } finally {
    app.kill();
    await new Promise((resolve) => (app.exitCode === null ? app.on('close', resolve) : resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function mcp() {
  const out = await output('node', ['dist/try.js'], withoutKey);
  expectThat(out.includes('tools/list: orders_get_status'), 'a client launched the server over stdio and listed the tool');
  expectThat(/"numero":"1001"\}: error: .*numero/s.test(out), 'an invalid call is refused, naming the field');
  expectThat(out.includes('{"status":"shipped","eta":"2026-10-20"}'), 'a valid call is answered');
}

const conversations = { node, nest, mcp };
if (!conversations[template]) throw new Error(`no conversation for template "${template}"`);
await conversations[template]();
