import Anthropic from '@anthropic-ai/sdk';
import { InMemoryRunStore, ToolContainer, checkTranscript, resumeToolLoop, runToolLoop, type ToolLogger } from '@toolwright/core';
import { startScriptedServer, text, toolUse, turn, type ScriptedServer } from '@toolwright/core/testing';
import { OrdersRepository } from '../orders/orders.repository';
import { OrdersTools } from '../orders/orders.tools';
import type { Session } from '../orders/session';
import { toolManifest } from '../tools.generated';
import { printTranscript } from './print';

const PROMPT = 'Cancele o meu pedido A-1001, por favor.';
const ana: Session = { customerId: 'C-ana' };

const script = [
  turn('tool_use', text('Vou cancelar o A-1001.'), toolUse('toolu_30', 'cancelar_pedido', { numero: 'A-1001' })),
  turn('end_turn', text('Pronto: o pedido A-1001 foi cancelado.')),
];

export interface ApprovalScenarioOptions {
  realApi: boolean;
  model: string;
  latencyMs: number;
  logger: ToolLogger;
}

/**
 * The approval scenario: under `approval: 'writes'` the cancellation waits for the customer; the
 * run is saved in the store, the "process" that asked is thrown away, and a new one resumes it
 * with the decision. The write runs once; a second decision for the same run runs nothing.
 */
export async function runApprovalScenario(options: ApprovalScenarioOptions): Promise<boolean> {
  console.log('\n== Aprovação: o cancelamento espera o cliente; a decisão chega a outro processo');
  const orders = new OrdersRepository(options.latencyMs);
  const store = new InMemoryRunStore();
  // A "process": its own container over the same orders (the database) and the same store.
  const processTools = () => new ToolContainer<Session>({ manifest: toolManifest, providers: [new OrdersTools(orders)], logger: options.logger, approval: 'writes' });
  let server: ScriptedServer | undefined;
  const client = options.realApi ? new Anthropic() : new Anthropic({ baseURL: (server = await startScriptedServer({ turns: script })).url, apiKey: 'scripted' });
  const common = { client, model: options.model, store, context: { auth: ana } };
  try {
    const paused = await runToolLoop({ ...common, tools: processTools(), prompt: PROMPT });
    if (paused.stopReason !== 'approval_required') {
      console.log(`  the model asked for no write this time (stopReason: ${paused.stopReason}): ${paused.text}`);
      return checkTranscript(paused.messages).length === 0;
    }
    console.log(`  stopReason: ${paused.stopReason}, runId: ${paused.runId}`);
    for (const call of paused.pending!) console.log(`  pendente: ${call.toolName} ${JSON.stringify(call.input)} (${call.effect}, ${call.toolUseId})`);
    console.log(`  cancelamentos até aqui: ${orders.cancellations.length}`);

    const decisions = Object.fromEntries(paused.pending!.map((call) => [call.toolUseId, { approve: true }]));
    console.log('  o cliente aprova; outro processo retoma a execução a partir do store');
    const done = await resumeToolLoop({ ...common, tools: processTools(), runId: paused.runId!, decisions });
    console.log(`resposta final: ${done.text}`);
    console.log(`  stopReason: ${done.stopReason}, turns: ${done.turns}, cancelamentos: ${JSON.stringify(orders.cancellations)}`);
    printTranscript(done.messages);

    await resumeToolLoop({ ...common, tools: processTools(), runId: paused.runId!, decisions }).then(
      () => console.log('  UNEXPECTED: a second decision ran the run again'),
      (error: Error) => console.log(`  a segunda decisão (clique duplo) é recusada: ${error.message}`),
    );
    console.log(`  cancelamentos no fim: ${JSON.stringify(orders.cancellations)} (uma vez)`);
    return checkTranscript(done.messages).length === 0 && orders.cancellations.length <= 1;
  } catch (error) {
    console.log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  } finally {
    await server?.close();
  }
}
