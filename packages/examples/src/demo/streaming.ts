import Anthropic from '@anthropic-ai/sdk';
import { ToolContainer, streamToolLoop, type ToolLogger, type ToolStreamEvent } from '@toolwright/core';
import { startScriptedServer, text, toolUse, turn, type ScriptedServer, type ScriptedStreamEvent } from '@toolwright/core/testing';
import { OrdersRepository } from '../orders/orders.repository';
import { OrdersTools } from '../orders/orders.tools';
import type { Session } from '../orders/session';
import { toolManifest } from '../tools.generated';
import { reportTranscript } from './print';

const PROMPT = 'Como estão meus pedidos A-1001 e A-1002? Se o A-1001 ainda não chegou, cancele.';
const ana: Session = { customerId: 'C-ana' };
/** When each block of the first response starts streaming, ms after the one before: the model "writes" for ~1.2 s. */
const BLOCK_GAPS_MS: Record<number, number> = { 2: 300, 4: 300, 5: 300 };
const END_GAP_MS = 300;
const MS_PER_CHAR = 25;

const script = [
  {
    ...turn(
      'tool_use',
      text('Vou consultar os dois pedidos.'),
      toolUse('toolu_20a', 'buscar_pedido', { numero: 'A-1001' }),
      text(' Enquanto isso, consulto o segundo.'),
      toolUse('toolu_20b', 'buscar_pedido', { numero: 'A-1002' }),
      text(' O A-1001 ainda está a caminho, então vou cancelá-lo.'),
      toolUse('toolu_20c', 'cancelar_pedido', { numero: 'A-1001' }),
    ),
    stream: {
      chunkChars: 8,
      delayMs: (event: ScriptedStreamEvent) =>
        event.type === 'content_block_start' ? (BLOCK_GAPS_MS[event.index] ?? 0) : event.type === 'message_delta' ? END_GAP_MS : 0,
    },
  },
  turn('end_turn', text('Cancelei o A-1001; o A-1002 já foi entregue.')),
];

/**
 * The streaming scenario: text arrives as the model writes it, both reads start before the
 * message ends, and the write waits for the whole message. The timeline marks the moment the
 * message arrived whole with `|`.
 */
export async function runStreamingScenario(options: { realApi: boolean; model: string; latencyMs: number; logger: ToolLogger }): Promise<boolean> {
  console.log('\n== cenário 8: streaming: leituras começam antes do fim da mensagem, a escrita espera a mensagem inteira');
  const tools = new ToolContainer<Session>({ manifest: toolManifest, providers: [new OrdersTools(new OrdersRepository(options.latencyMs))], logger: options.logger });
  let server: ScriptedServer | undefined;
  let client: Anthropic;
  if (options.realApi) {
    client = new Anthropic();
  } else {
    server = await startScriptedServer({ turns: script });
    client = new Anthropic({ baseURL: server.url, apiKey: 'scripted', maxRetries: 2 });
  }

  let messageComplete: number | undefined;
  const stream = streamToolLoop({
    client,
    model: options.model,
    prompt: PROMPT,
    tools,
    context: { auth: ana },
    maxTurns: 4,
    onEvent: (event) => {
      if (event.type === 'response' && event.turn === 1) messageComplete = event.at;
    },
  });
  const events: Array<{ event: ToolStreamEvent; at: number }> = [];
  process.stdout.write('  texto ao vivo: ');
  for await (const event of stream) {
    events.push({ event, at: Date.now() });
    if (event.type === 'text_delta') process.stdout.write(event.text);
    if (event.type === 'turn_end') process.stdout.write(' ');
  }
  process.stdout.write('\n');
  try {
    const run = await stream.result;
    printStreamTimeline(events, messageComplete);
    console.log(`resposta final: ${run.text}`);
    console.log(`  stopReason: ${run.stopReason}, turns: ${run.turns}`);
    const kept = reportTranscript(run.messages);
    await server?.close();
    return kept;
  } catch (error) {
    console.log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
    await server?.close().catch(() => undefined);
    return false;
  }
}

/** The first turn's message and calls on one clock; `|` is when the message arrived whole. */
function printStreamTimeline(events: ReadonlyArray<{ event: ToolStreamEvent; at: number }>, messageComplete: number | undefined): void {
  const origin = events.find((e) => e.event.type === 'turn_start')?.event as Extract<ToolStreamEvent, { type: 'turn_start' }> | undefined;
  if (!origin || messageComplete === undefined) return;
  const column = (at: number) => Math.max(0, Math.round((at - origin.at) / MS_PER_CHAR));
  const end = column(messageComplete);
  console.log(`  timeline da volta 1 (1 char = ${MS_PER_CHAR} ms; | = mensagem completa):`);
  console.log(`    ${'mensagem do modelo'.padEnd(32)} ${'▒'.repeat(end)}|`);
  const starts = new Map<string, Extract<ToolStreamEvent, { type: 'tool_start' }>>();
  for (const { event } of events) {
    if (event.type === 'tool_start' && event.turn === 1) starts.set(event.toolUseId, event);
    if (event.type !== 'tool_end' || event.turn !== 1) continue;
    const start = starts.get(event.toolUseId);
    const label = `${event.toolName} ${event.toolUseId}`.padEnd(32);
    if (!start) {
      console.log(`    ${label} (não executado: ${event.outcome})`);
      continue;
    }
    const from = column(start.at);
    const width = Math.max(1, column(event.at) - from);
    const bar = [...`${' '.repeat(from)}${'█'.repeat(width)}`.padEnd(end + 1)].map((c, i) => (i === end && c === ' ' ? '|' : c)).join('');
    const when = start.at < messageComplete ? 'começou antes do fim da mensagem' : 'começou depois da mensagem completa';
    console.log(`    ${label} ${bar} ${event.effect}, ${start.eager ? 'eager' : 'committed'}, ${when}, ${event.outcome}`);
  }
}
