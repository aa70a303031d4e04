import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { ToolContainer, runToolLoop, type ToolLogger, type ToolLoopEvent } from '@toolwright/core';
import { startScriptedServer, type ScriptedServer } from '@toolwright/core/testing';
import { OrdersRepository } from '../orders/orders.repository';
import { OrdersTools } from '../orders/orders.tools';
import type { Session } from '../orders/session';
import { toolManifest } from '../tools.generated';
import { printCalls, printTimeline, reportTranscript } from './print';
import { scenarios, type Scenario } from './scenarios';
import { runStreamingScenario } from './streaming';
import { runApprovalScenario } from './approval';

const REAL_API = Boolean(process.env.ANTHROPIC_API_KEY);
const MODEL = process.env.TOOLWRIGHT_DEMO_MODEL ?? 'claude-haiku-5-5';
/** Simulated database latency, so the timeline shows reads overlapping. */
const LATENCY_MS = 40;

/** Operator log: what the model never sees. Only the first line of each error, to keep the demo short. */
const operatorLog: ToolLogger = {
  error: (message, error) => console.log(`  [log] ${message} ${error instanceof Error ? error.stack?.split('\n')[0] : String(error)}`),
  warn: (message) => console.log(`  [log] ${message}`),
};

async function runScenario(scenario: Scenario): Promise<boolean> {
  console.log(`\n== ${scenario.title}`);
  const repo = new OrdersRepository(LATENCY_MS);
  scenario.setup?.(repo);
  const tools = new ToolContainer<Session>({ manifest: toolManifest, providers: [new OrdersTools(repo)], logger: operatorLog });

  let server: ScriptedServer | undefined;
  let client: Anthropic;
  if (REAL_API) {
    client = new Anthropic();
  } else {
    server = await startScriptedServer({ turns: scenario.script });
    client = new Anthropic({ baseURL: server.url, apiKey: 'scripted', maxRetries: 2 });
  }

  const events: ToolLoopEvent[] = [];
  try {
    const run = await runToolLoop({
      client,
      model: MODEL,
      prompt: scenario.prompt,
      tools,
      context: { auth: scenario.auth },
      maxTurns: scenario.maxTurns ?? 6,
      onEvent: (event) => void events.push(event),
    });
    printCalls(run.messages);
    printTimeline(events);
    console.log(`resposta final: ${run.text}`);
    console.log(`  stopReason: ${run.stopReason}, turns: ${run.turns}, output tokens: ${run.usage.outputTokens}`);
    if (server?.requests.some((r) => r.status !== 200)) {
      console.log(`  HTTP statuses of the scripted API: ${server.requests.map((r) => r.status).join(', ')} (the SDK retried)`);
    }
    const kept = reportTranscript(run.messages);
    await server?.close();
    return kept;
  } catch (error) {
    console.log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
    await server?.close().catch((closeError: unknown) => console.log(`  ${String(closeError)}`));
    return false;
  }
}

async function main(): Promise<void> {
  console.log(
    REAL_API
      ? `toolwright demo: the real Messages API (${MODEL}); the model decides, so answers vary.`
      : 'toolwright demo: the model\'s turns are SCRIPTED by a local Messages API server (@toolwright/core/testing);\n' +
          'the tools, validation, scheduling and the SDK client over HTTP are real. Set ANTHROPIC_API_KEY to use the real API.',
  );
  let ok = true;
  for (const scenario of scenarios) ok = (await runScenario(scenario)) && ok;
  ok = (await runStreamingScenario({ realApi: REAL_API, model: MODEL, latencyMs: LATENCY_MS * 3, logger: operatorLog })) && ok;
  ok = (await runApprovalScenario({ realApi: REAL_API, model: MODEL, latencyMs: LATENCY_MS, logger: operatorLog })) && ok;
  console.log(ok ? '\nEvery transcript kept the protocol rules.' : '\nSome scenario failed or broke the protocol rules.');
  process.exitCode = ok ? 0 : 1;
}

void main();
