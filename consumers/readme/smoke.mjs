// Runs the tutorial's src/main.ts, as built, against the scripted server: `new Anthropic()`
// reads ANTHROPIC_BASE_URL, so the tutorial's code runs unchanged.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startScriptedServer, text, toolUse, turn } from '@toolwright/core/testing';

const server = await startScriptedServer({
  turns: [
    turn('tool_use', toolUse('toolu_01', 'orders_get_status', { numero: 'A-1001' })),
    (request) => {
      const result = request.body.messages.at(-1).content[0];
      return turn('end_turn', text(`tool said ${JSON.stringify(result.content)}`));
    },
  ],
});
try {
  const { stdout } = await promisify(execFile)(process.execPath, ['dist/main.js'], {
    env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' },
  });
  if (!stdout.includes('shipped') || !stdout.includes('end_turn')) throw new Error(`the tutorial printed: ${stdout}`);
  console.log(`tutorial: ${stdout.trim()}`);
} finally {
  await server.close();
}
