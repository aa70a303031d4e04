import 'reflect-metadata';
import fc from 'fast-check';
import type { ContentBlock, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ToolContainer, runToolLoop, type MessagesClient } from '@toolwright/core';
import { text, toolUse } from '@toolwright/core/testing';
import { FeatureTools, featureManifest } from './fixtures/feature-tools';
import { strictRefusals } from '../oracle/strict-messages-api';

// DESIGN.md: prompt caching by default, never more than the API's four breakpoints, none added
// next to the caller's own (in the system prompt, or the top-level `params.cache_control`).
// Checked on every request of random runs, in process, and every request is also replayed
// against the independent strict oracle (test/oracle). In process, so 500 runs are cheap.

const MODEL = 'claude-haiku-5-5';
const marked = (value: unknown) => typeof value === 'object' && value !== null && (value as { cache_control?: unknown }).cache_control != null;

type Body = { tools?: unknown[]; system?: unknown; messages: MessageParam[]; cache_control?: unknown };

function countMarks(body: Body): number {
  let count = marked(body) ? 1 : 0;
  count += (body.tools ?? []).filter(marked).length;
  if (Array.isArray(body.system)) count += body.system.filter(marked).length;
  for (const m of body.messages) if (Array.isArray(m.content)) count += m.content.filter(marked).length;
  return count;
}

const block = fc.oneof(
  fc.constant<'text'>('text'),
  fc.constant<'empty'>('empty'),
  fc.constant<'thinking'>('thinking'),
  fc.constant<'call'>('call'),
);

test('every request carries at most four breakpoints; the loop adds none next to the caller\'s, and at most three of its own', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(block, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 7 }),
      fc.integer({ min: 0, max: 4 }),
      fc.boolean(),
      fc.boolean(),
      async (turns, ownInSystem, topLevel, stringPrompt) => {
        // The caller's own breakpoints: some in the system prompt, maybe one top-level; four at most.
        const systemMarks = topLevel ? Math.min(ownInSystem, 3) : ownInSystem;
        const own = systemMarks + (topLevel ? 1 : 0);
        const bodies: Body[] = [];
        let id = 0;
        const replies = turns.map((kinds, t) => {
          const content: ContentBlock[] = kinds.map((kind) => {
            if (kind === 'call') return toolUse(`toolu_${++id}`, 'buscar_pedido', { numero: 'A-1001' });
            if (kind === 'thinking') return { type: 'thinking', thinking: 'hm', signature: 'sig' } as ContentBlock;
            return text(kind === 'empty' ? '' : `parte ${t}`);
          });
          const calls = kinds.includes('call') && t < turns.length - 1;
          return { content: calls ? content : content.filter((b) => b.type !== 'tool_use').concat(text('fim')), stop_reason: calls ? 'tool_use' : 'end_turn' };
        });
        const client = {
          messages: {
            create: async (body: Body) => {
              bodies.push(structuredClone(body));
              const reply = replies[bodies.length - 1];
              return { id: `msg_${bodies.length}`, type: 'message', role: 'assistant', model: MODEL, content: reply.content, stop_reason: reply.stop_reason, stop_sequence: null, container: null, usage: { input_tokens: 1, output_tokens: 1 } };
            },
          },
        } as unknown as MessagesClient;
        const system: TextBlockParam[] = Array.from({ length: Math.max(systemMarks, 1) }, (_, i) => ({ type: 'text', text: `regra ${i}`, ...(i < systemMarks && { cache_control: { type: 'ephemeral' as const } }) }));
        const tools = new ToolContainer({ manifest: featureManifest, providers: [new FeatureTools()], toolSearch: 'regex' });
        const prompt = stringPrompt ? 'Meus pedidos?' : undefined;
        const messages: MessageParam[] | undefined = stringPrompt ? undefined : [{ role: 'user', content: [{ type: 'text', text: 'Meus pedidos?' }] }];

        const params = topLevel ? { cache_control: { type: 'ephemeral' as const } } : undefined;
        const run = await runToolLoop({ client, model: MODEL, system, prompt, messages, tools, maxTurns: 10, params });

        for (const body of bodies) {
          expect(strictRefusals(body)).toEqual([]);
          const count = countMarks(body);
          expect(count).toBeLessThanOrEqual(4);
          if (own > 0) {
            expect(count).toBe(own);
            continue;
          }
          expect(count).toBeLessThanOrEqual(3);
          expect((body.tools ?? []).filter(marked)).toHaveLength(1);
          const last = body.messages.at(-1)!;
          const cacheable = (last.content as Array<{ type: string; text?: string }>).filter((b) => b.type !== 'thinking' && !(b.type === 'text' && b.text === ''));
          if (cacheable.length > 0) expect(marked(cacheable.at(-1))).toBe(true);
        }
        expect(JSON.stringify(run.messages)).not.toContain('cache_control');
        expect(strictRefusals({ messages: run.messages, tools: tools.definitions() })).toEqual([]);
      },
    ),
    { numRuns: 500 },
  );
});
