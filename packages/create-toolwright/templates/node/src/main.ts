import Anthropic from '@anthropic-ai/sdk';
import { runToolLoop } from '@toolwright/core';
import { startScriptedModel } from './scripted-model.js';
import { createTools } from './tools.js';

// npm start -- "Where is order A-1002?"
const prompt = process.argv.slice(2).join(' ') || 'Where is order A-1001?';

// Without a key, a scripted model on this machine answers (src/scripted-model.ts); with one, Claude.
const scripted = process.env.ANTHROPIC_API_KEY ? undefined : await startScriptedModel();
if (scripted) console.error('No ANTHROPIC_API_KEY: the scripted model in src/scripted-model.ts answers. Set the key to ask Claude.');
try {
  const run = await runToolLoop({
    client: scripted ? new Anthropic({ baseURL: scripted.url, apiKey: 'scripted' }) : new Anthropic(),
    model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5',
    prompt,
    tools: createTools(),
    maxTurns: 6,
  });
  console.log(run.text);
  console.error(`(${run.stopReason} after ${run.turns} turn${run.turns === 1 ? '' : 's'})`);
} finally {
  await scripted?.close();
}
