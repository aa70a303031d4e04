import 'reflect-metadata';
import fc from 'fast-check';
import type { ContentBlock, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ToolContainer, runToolLoop, type MessagesClient } from '@toolwright/core';
import { text, toolUse } from '@toolwright/core/testing';
import { FeatureTools, featureManifest } from './fixtures/feature-tools';
import { strictRefusals } from '../oracle/strict-messages-api';

// DESIGN.md: prompt caching by default (off with `promptCaching: false`), never more than the
// API's four breakpoints, none added next to the caller's own (in the system prompt, the top-level
// `params.cache_control`, a message the caller passes, or a server tool), the tools' breakpoint
// on the last tool loaded up front (a deferred tool is not part of the prefix), and the moving
// breakpoint kept where the request before put it, so that request's cache entry is read back.
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
  fc.constant<'redacted'>('redacted'),
  fc.constant<'call'>('call'),
);

/** A turn: its blocks, and whether the model pauses (`pause_turn`: the message is sent back as the last one). */
const turnOf = fc.record({ kinds: fc.array(block, { minLength: 1, maxLength: 5 }), paused: fc.boolean() });

type Turn = typeof turnOf extends fc.Arbitrary<infer T> ? T : never;
type More = { inMessage: boolean; inServerTool: boolean; deferredServerTool: boolean; cachingOff: boolean };

test('every request carries at most four breakpoints; the loop adds none next to the caller\'s, and at most three of its own', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(turnOf, { minLength: 1, maxLength: 7 }),
      fc.integer({ min: 0, max: 4 }),
      fc.boolean(),
      fc.boolean(),
      fc.record({ inMessage: fc.boolean(), inServerTool: fc.boolean(), deferredServerTool: fc.boolean(), cachingOff: fc.boolean() }),
      checkRun,
    ),
    { numRuns: 500 },
  );
});

// The same check with no breakpoint of the caller's, so every run exercises the loop's own
// (paused turns, a trailing deferred tool, the moving breakpoint), however few runs are made.
test('with none of the caller\'s, the loop marks the last tool loaded up front and the conversation where each request reads it back', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(turnOf, { minLength: 1, maxLength: 7 }), fc.boolean(), fc.boolean(), (turns, stringPrompt, deferredServerTool) =>
      checkRun(turns, 0, false, stringPrompt, { inMessage: false, inServerTool: false, deferredServerTool, cachingOff: false }),
    ),
    { numRuns: 300 },
  );
});

async function checkRun(turns: Turn[], ownInSystem: number, topLevel: boolean, stringPrompt: boolean, more: More): Promise<void> {
        // The caller's own breakpoints: some in the system prompt, maybe one top-level, one in the
        // message it passes, one on a server tool; four at most.
        const inMessage = more.inMessage && !stringPrompt;
        const elsewhere = (topLevel ? 1 : 0) + (inMessage ? 1 : 0) + (more.inServerTool ? 1 : 0);
        const systemMarks = Math.min(ownInSystem, 4 - elsewhere);
        const own = systemMarks + elsewhere;
        const bodies: Body[] = [];
        let id = 0;
        const replies = turns.map(({ kinds, paused }, t) => {
          const content: ContentBlock[] = kinds.map((kind) => {
            if (kind === 'call') return toolUse(`toolu_${++id}`, 'buscar_pedido', { numero: 'A-1001' });
            if (kind === 'thinking') return { type: 'thinking', thinking: 'hm', signature: 'sig' } as ContentBlock;
            if (kind === 'redacted') return { type: 'redacted_thinking', data: 'cifrado' } as ContentBlock;
            return text(kind === 'empty' ? '' : `parte ${t}`);
          });
          const last = t === turns.length - 1;
          // A paused message goes back as it came, so it may end in thinking or an empty text.
          if (paused && !last) return { content: content.filter((b) => b.type !== 'tool_use'), stop_reason: 'pause_turn' };
          const calls = kinds.includes('call') && !last;
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
        const messages: MessageParam[] | undefined = stringPrompt
          ? undefined
          : [{ role: 'user', content: [{ type: 'text', text: 'Meus pedidos?', ...(inMessage && { cache_control: { type: 'ephemeral' as const } }) }] }];
        const serverTools = [
          ...(more.inServerTool ? [{ type: 'web_search_20250305' as const, name: 'web_search' as const, cache_control: { type: 'ephemeral' as const } }] : []),
          ...(more.deferredServerTool ? [{ type: 'web_fetch_20250910' as const, name: 'web_fetch' as const, defer_loading: true }] : []),
        ];

        const params = topLevel ? { cache_control: { type: 'ephemeral' as const } } : undefined;
        const caching = !more.cachingOff;
        const run = await runToolLoop({ client, model: MODEL, system, prompt, messages, tools, maxTurns: 10, params, serverTools, ...(!caching && { promptCaching: false }) });

        let previous: { message: number; block: number } | undefined;
        for (const body of bodies) {
          expect(strictRefusals(body)).toEqual([]);
          const count = countMarks(body);
          expect(count).toBeLessThanOrEqual(4);
          if (own > 0 || !caching) {
            expect(count).toBe(own);
            continue;
          }
          expect(count).toBeLessThanOrEqual(3);
          // The tools' breakpoint: on the last tool loaded up front, none on a deferred one.
          const requestTools = (body.tools ?? []) as Array<{ defer_loading?: boolean }>;
          const upFront = requestTools.filter((t) => t.defer_loading !== true);
          expect(requestTools.filter(marked)).toEqual([upFront.at(-1)]);
          const last = body.messages.at(-1)!;
          const blocks = last.content as Array<{ type: string; text?: string }>;
          // The API takes no cache_control on thinking (plain or redacted) nor on an empty text.
          const cacheable = blocks.filter((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking' && !(b.type === 'text' && b.text === ''));
          if (cacheable.length > 0) expect(marked(cacheable.at(-1))).toBe(true);
          // The request before wrote its entry at its moving breakpoint: this one marks it again.
          if (previous) expect(marked((body.messages[previous.message].content as unknown[])[previous.block])).toBe(true);
          if (cacheable.length > 0) previous = { message: body.messages.length - 1, block: blocks.lastIndexOf(cacheable.at(-1)!) };
        }
        // The run's messages stay as written: the caller's own marker, none of the loop's.
        expect(JSON.stringify(run.messages).split('cache_control').length - 1).toBe(inMessage ? 1 : 0);
        expect(strictRefusals({ messages: run.messages, tools: tools.definitions() })).toEqual([]);
}
