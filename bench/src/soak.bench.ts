// Soak: many whole conversations through `runToolLoop`, 200 at a time, against an in-process
// fake of `client.messages.create` (no HTTP, so the figures are the framework's). Each
// conversation is two requests: the model asks for two lookups (one valid, one invalid input),
// then answers in text. Reports conversations per second and the heap after a full GC at every
// 1,000 conversations: flat means nothing a conversation leaves behind survives it.
import 'reflect-metadata';
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { ToolContainer, runToolLoop } from '@toolwright/core';
import { OrderLookupTools, orderLookupManifest } from './fixtures/order-lookup.tools';
import { runWithGc } from './lib/with-gc';
import { fixed, isCi, markdownTable, megabytes, progress, ratio, writeSection } from './lib/report';

const CONVERSATIONS = isCi ? 400 : 20_000;
const CONCURRENCY = isCi ? 20 : 200;
const SAMPLE_EVERY = isCi ? 100 : 1_000;

let responses = 0;

/** Answers like the Messages API: tool calls first, then text once the results are in. */
const client = {
  messages: {
    async create(params: MessageCreateParamsNonStreaming): Promise<Message> {
      const last = params.messages[params.messages.length - 1];
      const answered = Array.isArray(last.content) && last.content.some((b) => b.type === 'tool_result');
      const n = ++responses;
      await Promise.resolve();
      return {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model: params.model,
        content: answered
          ? [{ type: 'text', text: 'O pedido A-1001 foi enviado.', citations: null }]
          : [
              { type: 'text', text: 'Vou consultar.', citations: null },
              { type: 'tool_use', id: `toolu_${n}_a`, name: 'buscar_pedido', input: { numero: 'A-1001' }, caller: { type: 'direct' } },
              { type: 'tool_use', id: `toolu_${n}_b`, name: 'buscar_pedido', input: { numero: '1002' }, caller: { type: 'direct' } },
            ],
        stop_reason: answered ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      } as unknown as Message;
    },
  },
};

const tools = new ToolContainer({ manifest: orderLookupManifest, providers: [new OrderLookupTools()] });

const lookups = new OrderLookupTools();

/** The baseline: the same two requests and lookups by hand, no validation, no loop. */
async function bareConversation(): Promise<void> {
  const request = { model: 'claude-haiku-5-5', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Onde está o pedido A-1001?' }] };
  const first = await client.messages.create(request);
  const results = await Promise.all(
    first.content.flatMap((b) => (b.type === 'tool_use' ? [lookups.buscarPedido((b.input as { numero: string }).numero)] : [])),
  );
  await client.messages.create({
    ...request,
    messages: [
      ...request.messages,
      { role: 'assistant', content: first.content },
      { role: 'user', content: results.map((r, i) => ({ type: 'tool_result' as const, tool_use_id: `t${i}`, content: JSON.stringify(r) })) },
    ],
  });
}

async function conversation(): Promise<void> {
  const run = await runToolLoop({ client: client as never, model: 'claude-haiku-5-5', tools, prompt: 'Onde está o pedido A-1001?' });
  if (run.stopReason !== 'end_turn') throw new Error(`a conversation ended with ${run.stopReason}`);
}

async function main(gc: () => void): Promise<void> {
  const heap: Array<{ conversations: number; bytes: number }> = [];
  const sample = (conversations: number) => {
    gc();
    heap.push({ conversations, bytes: process.memoryUsage().heapUsed });
  };
  // Warm-up: the first conversations compile code and fill caches the heap figures must not count.
  for (let i = 0; i < CONCURRENCY; i++) await conversation();
  sample(0);

  // Rounds of SAMPLE_EVERY conversations, CONCURRENCY in flight; the heap is sampled between
  // rounds, with none in flight, so it measures what survives a conversation, not what is running.
  let started = 0;
  let done = 0;
  let elapsed = 0;
  while (done < CONVERSATIONS) {
    const target = Math.min(done + SAMPLE_EVERY, CONVERSATIONS);
    const round = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (started < target) {
          started++;
          await conversation();
          done++;
        }
      }),
    );
    elapsed += performance.now() - round;
    sample(done);
    progress(`soak: ${done.toLocaleString('en-US')} conversations`);
  }

  const perSecond = (CONVERSATIONS / elapsed) * 1000;
  const bareStarted = performance.now();
  let bareStartedCount = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (bareStartedCount < CONVERSATIONS) {
        bareStartedCount++;
        await bareConversation();
      }
    }),
  );
  const barePerSecond = (CONVERSATIONS / (performance.now() - bareStarted)) * 1000;
  const middle = heap[Math.floor(heap.length / 2)];
  const lateGrowthPerThousand = ((heap[heap.length - 1].bytes - middle.bytes) / (CONVERSATIONS - middle.conversations)) * 1000;
  const first = heap[0].bytes;
  const last = heap[heap.length - 1].bytes;
  const growthPerThousand = ((last - first) / CONVERSATIONS) * 1000;
  const rows = heap.map((h) => [h.conversations.toLocaleString('en-US'), megabytes(h.bytes), megabytes(h.bytes - first)]);
  writeSection(
    'soak',
    [
      '## 7. Soak: conversations through `runToolLoop`',
      '',
      `${CONVERSATIONS.toLocaleString('en-US')} conversations, ${CONCURRENCY} at a time, each two requests to an in-process fake ` +
        '`messages.create` and two `buscar_pedido` calls (one valid, one invalid input). Heap after `gc()` ' +
        `(\`node --expose-gc\`) between rounds of ${SAMPLE_EVERY.toLocaleString('en-US')}.`,
      '',
      markdownTable(
        ['path', 'conversations/s', 'this ÷ ours'],
        [
          ['`runToolLoop` + `ToolContainer`', fixed(perSecond, 0), '1.00×'],
          ['by hand: two creates, two bare lookups (floor)', fixed(barePerSecond, 0), ratio(barePerSecond, perSecond)],
        ],
      ),
      '',
      markdownTable(
        ['heap at start', 'heap at end', 'growth per 1,000 conversations', 'growth per 1,000, second half'],
        [[megabytes(first), megabytes(last), `${fixed(growthPerThousand / 1024, 1)} KB`, `${fixed(lateGrowthPerThousand / 1024, 1)} KB`]],
      ),
      '',
      markdownTable(['conversations', 'heap after GC', 'since start'], rows),
    ].join('\n'),
  );
}

runWithGc(main, __filename);
