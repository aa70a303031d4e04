import { MockLanguageModelV4, simulateReadableStream } from 'ai/test';

// A scripted AI SDK model: each step is what the model "says", as the provider would hand it over.

export interface ScriptedCall {
  id: string;
  name: string;
  input: unknown;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

export type Step = ScriptedCall[] | string;

function content(step: Step) {
  return typeof step === 'string'
    ? [{ type: 'text' as const, text: step }]
    : step.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) }));
}

const finish = (step: Step) => ({ unified: typeof step === 'string' ? ('stop' as const) : ('tool-calls' as const), raw: undefined });

/** `generateText`'s model: one scripted result per step. */
export function generatingModel(...steps: Step[]) {
  return new MockLanguageModelV4({ doGenerate: steps.map((step) => ({ content: content(step), finishReason: finish(step), usage, warnings: [] })) });
}

/**
 * `streamText`'s model: each call's input arrives in two deltas before its `tool-call`, with
 * `chunkDelayInMs` between chunks, so a step's calls are written (and started) at different times.
 */
export function streamingModel(chunkDelayInMs: number, ...steps: Step[]) {
  let at = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const step = steps[at++];
      const chunks: unknown[] = [{ type: 'stream-start', warnings: [] }];
      if (typeof step === 'string') chunks.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: step }, { type: 'text-end', id: 't' });
      else
        for (const c of step) {
          const json = JSON.stringify(c.input);
          const half = Math.floor(json.length / 2);
          chunks.push(
            { type: 'tool-input-start', id: c.id, toolName: c.name },
            { type: 'tool-input-delta', id: c.id, delta: json.slice(0, half) },
            { type: 'tool-input-delta', id: c.id, delta: json.slice(half) },
            { type: 'tool-input-end', id: c.id },
            { type: 'tool-call', toolCallId: c.id, toolName: c.name, input: json },
          );
        }
      chunks.push({ type: 'finish', finishReason: finish(step), usage });
      return { stream: simulateReadableStream({ chunks: chunks as never[], chunkDelayInMs }) };
    },
  });
}
