// Streaming: one streamed turn of ~2 s whose three 300 ms reads are released at 25/50/75 % of the
// message, then a write, run by streamToolLoop (eager reads), a hand-written streaming loop that
// runs the tools after the message, runToolLoop (no streaming), and the SDK's tool runner without
// and with runToolsEagerly (also with deferToolCall on writes); and streamToolLoop again on a container that asks for approval of
// the write (the reads come ahead of that call: they still start early, the run pauses at the
// write, which is approved at once and resumed). Ratios against the physical limit: when the
// stream ends or the last read ends, whichever is later, plus the write.
import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version';
import type { ContentBlock, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { setTimeout as sleep } from 'node:timers/promises';
import { InMemoryRunStore, ToolContainer, runToolLoop, streamResumeToolLoop, streamToolLoop, type ApprovalPolicy, type ToolStream } from '@toolwright/core';
import { startScriptedServer, text, toolUse, turn, type ScriptedStreamEvent, type ScriptedTurn } from '@toolwright/core/testing';
import { StreamedTurnTools, streamedTurnManifest } from './fixtures/streamed-turn.tools';
import { median } from './lib/stats';
import { fixed, isCi, markdownTable, metIf, progress, ratio, writeSection } from './lib/report';

const SCALE = isCi ? 0.05 : 1;
const MESSAGE_MS = 2_000 * SCALE;
const READ_MS = 300 * SCALE;
const WRITE_MS = 100 * SCALE;
const ROUNDS = isCi ? 1 : 3;
const MODEL = 'claude-haiku-5-5';

/** Block i starts this many ms after the one before it: reads end their blocks at 25, 50 and 75 %. */
const BLOCK_START_DELAYS: Record<number, number> = { 2: 0.25, 4: 0.25, 6: 0.25, 7: 0.125 };
const MESSAGE_END_DELAY = 0.125;

const firstTurn = turn(
  'tool_use',
  text('Vou conferir o estoque dos três itens.'),
  toolUse('toolu_r1', 'consultar_estoque', {}),
  text(' O primeiro está ok.'),
  toolUse('toolu_r2', 'consultar_estoque', {}),
  text(' O segundo também.'),
  toolUse('toolu_r3', 'consultar_estoque', {}),
  text(' Agora reservo.'),
  toolUse('toolu_w1', 'reservar', {}),
);
const finalTurn = turn('end_turn', text('Reservado.'));

/** The physical limit of the run: stream end or last read end, whichever is later, plus the write. */
const LIMIT_MS = Math.max(MESSAGE_MS, 0.75 * MESSAGE_MS + READ_MS) + WRITE_MS;

interface Sample {
  ms: number;
  /** The first text delta: when the caller saw it, minus when the server sent it. */
  firstTextLagMs?: number;
  readsStartedEarly: number;
}

/** A server whose first turn streams over MESSAGE_MS, or answers after MESSAGE_MS as JSON. */
async function server() {
  let firstTextSentAt: number | undefined;
  const delayMs = (event: ScriptedStreamEvent): number => {
    let delay = 0;
    if (event.type === 'content_block_start') delay = (BLOCK_START_DELAYS[event.index] ?? 0) * MESSAGE_MS;
    if (event.type === 'message_delta') delay = MESSAGE_END_DELAY * MESSAGE_MS;
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta' && firstTextSentAt === undefined) firstTextSentAt = performance.now() + delay;
    return delay;
  };
  const first: ScriptedTurn = async (request) => {
    if (request.body.stream === true) return { ...firstTurn, stream: { delayMs } };
    await sleep(MESSAGE_MS);
    return firstTurn;
  };
  const scripted = await startScriptedServer({ turns: [first, finalTurn] });
  return { scripted, client: new Anthropic({ baseURL: scripted.url, apiKey: 'bench', maxRetries: 0 }), firstTextSentAt: () => firstTextSentAt };
}

type Strategy = (env: { client: Anthropic; container: ToolContainer; tools: StreamedTurnTools; onFirstText: () => void }) => Promise<void>;

const APPROVAL_LABEL = 'streamToolLoop, approval on the write (approved at once)';
/** The container each strategy runs on: the approval row asks for every write. */
const POLICY: Record<string, ApprovalPolicy> = { [APPROVAL_LABEL]: 'writes' };

const prompt: MessageParam[] = [{ role: 'user', content: 'Reserve os três itens.' }];

const STRATEGIES: Array<[string, Strategy]> = [
  [
    'streamToolLoop (eager reads)',
    async ({ client, container, onFirstText }) => {
      const stream = streamToolLoop({ client, model: MODEL, messages: prompt, tools: container });
      for await (const event of stream) if (event.type === 'text_delta') onFirstText();
      await stream.result;
    },
  ],
  [
    'streaming, tools after the message',
    async ({ client, container, onFirstText }) => {
      const messages = [...prompt];
      for (;;) {
        const stream = client.messages.stream({ model: MODEL, max_tokens: 1024, messages, tools: container.definitions() });
        stream.on('text', onFirstText);
        const message = await stream.finalMessage();
        messages.push({ role: 'assistant', content: message.content });
        if (message.stop_reason !== 'tool_use') return;
        messages.push(await container.reply(message.content as ContentBlock[]));
      }
    },
  ],
  [
    APPROVAL_LABEL,
    async ({ client, container, onFirstText }) => {
      const store = new InMemoryRunStore();
      const drain = async (stream: ToolStream) => {
        for await (const event of stream) if (event.type === 'text_delta') onFirstText();
        return stream.result;
      };
      const paused = await drain(streamToolLoop({ client, model: MODEL, messages: prompt, tools: container, store }));
      if (paused.stopReason !== 'approval_required') throw new Error(`expected a pause for approval, got ${paused.stopReason}`);
      const decisions = Object.fromEntries(paused.pending!.map((call) => [call.toolUseId, { approve: true }]));
      const resumed = await drain(await streamResumeToolLoop({ client, model: MODEL, tools: container, store, runId: paused.runId!, decisions }));
      if (resumed.stopReason !== 'end_turn') throw new Error(`expected the resumed run to end, got ${resumed.stopReason}`);
    },
  ],
  ['runToolLoop (no streaming)', async ({ client, container }) => void (await runToolLoop({ client, model: MODEL, messages: prompt, tools: container }))],
  [`SDK ${SDK_VERSION} runner, stream: true`, (env) => runner(env, 'after')],
  [`SDK ${SDK_VERSION} runner, runToolsEagerly`, (env) => runner(env, 'eager')],
  [`SDK ${SDK_VERSION} runner, runToolsEagerly + deferToolCall on writes`, (env) => runner(env, 'eager-reads')],
];

/**
 * The SDK's own tool runner on the container's tools: tools after the message, every call started
 * as its block ends (`runToolsEagerly`), or that with each call that may write held until the
 * message is done (`deferToolCall`), which is what streamToolLoop does.
 */
async function runner({ client, container, onFirstText }: Parameters<Strategy>[0], mode: 'after' | 'eager' | 'eager-reads'): Promise<void> {
  const run = client.beta.messages.toolRunner({
    model: MODEL,
    max_tokens: 1024,
    messages: prompt,
    tools: container.asRunnableTools(),
    stream: true,
    runToolsEagerly: mode !== 'after',
  });
  for await (const stream of run) {
    stream.on('text', onFirstText);
    if (mode === 'eager-reads') {
      stream.on('contentBlock', (block) => {
        if (block.type === 'tool_use' && container.effectOf(block.name) !== 'read') run.deferToolCall(block);
      });
    }
    await stream.finalMessage();
  }
}

async function sample(strategy: Strategy, approval: ApprovalPolicy = 'none'): Promise<Sample> {
  const { scripted, client, firstTextSentAt } = await server();
  const tools = new StreamedTurnTools(READ_MS, WRITE_MS);
  const container = new ToolContainer({ manifest: streamedTurnManifest, providers: [tools], approval });
  let firstTextAt: number | undefined;
  const started = performance.now();
  await strategy({ client, container, tools, onFirstText: () => (firstTextAt ??= performance.now()) });
  const ms = performance.now() - started;
  await scripted.close();
  const sentAt = firstTextSentAt();
  return {
    ms,
    firstTextLagMs: firstTextAt !== undefined && sentAt !== undefined ? firstTextAt - sentAt : undefined,
    readsStartedEarly: tools.starts.filter((s) => s.effect === 'read' && s.at - started < MESSAGE_MS * 0.95).length,
  };
}

async function main(): Promise<void> {
  // Module loading and JIT warm-up, outside the numbers.
  for (const [label, strategy] of STRATEGIES) await sample(strategy, POLICY[label]);
  const rows: string[][] = [];
  let eagerRatio = Infinity;
  let approvalRatio = Infinity;
  for (const [label, strategy] of STRATEGIES) {
    progress(`streaming: ${label}`);
    const samples: Sample[] = [];
    for (let round = 0; round < ROUNDS; round++) samples.push(await sample(strategy, POLICY[label]));
    const ms = median(samples.map((s) => s.ms));
    const lags = samples.flatMap((s) => (s.firstTextLagMs === undefined ? [] : [s.firstTextLagMs]));
    if (label === STRATEGIES[0][0]) eagerRatio = ms / LIMIT_MS;
    if (label === APPROVAL_LABEL) approvalRatio = ms / LIMIT_MS;
    rows.push([label, fixed(ms, 0), ratio(ms, LIMIT_MS), lags.length > 0 ? fixed(median(lags), 1) : 'n/a', String(Math.min(...samples.map((s) => s.readsStartedEarly)))]);
  }
  writeSection(
    'streaming',
    [
      '## 3. Streaming',
      '',
      `One streamed turn of ${fixed(MESSAGE_MS, 0)} ms holding three reads of ${fixed(READ_MS, 0)} ms whose blocks end at 25, 50 and 75 % ` +
        `of the message, then a write of ${fixed(WRITE_MS, 0)} ms, then a short final turn, over HTTP against the scripted server ` +
        `(the non-streaming path gets its JSON answer after the same ${fixed(MESSAGE_MS, 0)} ms). Physical limit ${fixed(LIMIT_MS, 0)} ms ` +
        `(the later of the stream's end and the last read's end, plus the write). Wall time of the whole run, median of ${ROUNDS} rounds. ` +
        '"first text lag": when the caller saw the first text delta minus when the server sent it (median, ms).',
      '',
      markdownTable(['strategy', 'wall ms', '÷ limit', 'first text lag ms', 'reads started before the message ended'], rows),
      '',
      `Goal, streamToolLoop within 5% of the limit: **${metIf(eagerRatio <= 1.05)}** (${ratio(eagerRatio, 1)}). ` +
        `The SDK ${SDK_VERSION} runner with runToolsEagerly starts reads early too, but it starts a write as soon as the model moves past it, ` +
        'whether or not the message will end with tool_use (here the write is the last block, so it starts at the end either way); ' +
        'holding each write with `deferToolCall` from a `contentBlock` listener gives the order streamToolLoop keeps by default. ' +
        `With approval on the write (its reads come ahead of it, so they still start early; the run pauses, is approved at once and ` +
        `resumed from an in-memory store): ${ratio(approvalRatio, 1)} of the limit, beside ${ratio(eagerRatio, 1)} without approval.`,
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
