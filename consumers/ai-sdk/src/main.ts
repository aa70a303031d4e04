import 'reflect-metadata';
import { generateText, isStepCount } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { ToolContainer } from '@toolwright/core';
import { toAiSdkTools } from '@toolwright/ai-sdk';
import { check, checkResults } from './check.js';
import { OrdersTools } from './orders.tools.js';
import { toolManifest } from './tools.generated.js';

// The orders tools inside the AI SDK's own loop (generateText), on Node 22 and ESM as `ai` 7 needs.
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
const call = (toolCallId: string, toolName: string, input: unknown) => ({ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) });
const model = new MockLanguageModelV4({
  doGenerate: [
    { content: [call('c1', 'orders_cancel', { numero: '1001' }), call('c2', 'orders_get_status', { numero: 'A-1001' })], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
    { content: [call('c3', 'orders_get_status', { numero: 'A-1001' })], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
    { content: [{ type: 'text', text: 'A-1001 is on its way.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
  ],
});

const tools = new ToolContainer({ manifest: toolManifest, providers: [new OrdersTools()] });
const result = await generateText({ model, prompt: 'Cancel order 1001, or tell me where it is.', tools: toAiSdkTools(tools), stopWhen: isStepCount(5) });

const sent = (step: number) =>
  model.doGenerateCalls[step].prompt.flatMap((m) =>
    m.role === 'tool' ? m.content.flatMap((p) => (p.type === 'tool-result' && 'value' in p.output ? [String(p.output.value)] : [])) : [],
  );
checkResults(sent(1), sent(2).slice(2));
check(result.text === 'A-1001 is on its way.', `text ${JSON.stringify(result.text)}`);
console.log(`ai-sdk smoke: ok on Node ${process.version}`);
