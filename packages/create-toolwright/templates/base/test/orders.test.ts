import Anthropic from '@anthropic-ai/sdk';
import { runToolLoop } from '@toolwright/core';
import { checkTranscript, startScriptedServer, text, toolUse, turn } from '@toolwright/core/testing';
import { expect, test } from 'vitest';
import { createTools } from '../src/tools.js';

test('the model is told what was wrong with its call, corrects it, and gets the order', async () => {
  // The model's turns, scripted; the SDK talks to them over real HTTP.
  const server = await startScriptedServer({
    turns: [
      turn('tool_use', toolUse('toolu_01', 'orders_get_status', { numero: '1001' })),
      turn('tool_use', toolUse('toolu_02', 'orders_get_status', { numero: 'A-1001' })),
      turn('end_turn', text('A-1001 has shipped; it should arrive on 2026-10-20.')),
    ],
  });
  try {
    const run = await runToolLoop({
      client: new Anthropic({ baseURL: server.url, apiKey: 'test' }),
      model: 'claude-sonnet-4-5',
      prompt: 'Where is order A-1001?',
      tools: createTools(),
    });
    const results = run.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b) => b.type === 'tool_result')));
    expect(results[0]).toMatchObject({ tool_use_id: 'toolu_01', is_error: true, content: expect.stringContaining('numero') });
    expect(results[1]).toMatchObject({ tool_use_id: 'toolu_02', content: '{"status":"shipped","eta":"2026-10-20"}' });
    expect(run.text).toBe('A-1001 has shipped; it should arrive on 2026-10-20.');
    expect(checkTranscript(run.messages)).toEqual([]);
  } finally {
    await server.close();
  }
});
