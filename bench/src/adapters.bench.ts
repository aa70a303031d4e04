// Dispatch cost per call of the lesson's `buscar_pedido` inside each agent framework: the
// framework's own tool with a zod schema against toolwright's adapter for the same tool, both
// called through the entry point the framework's loop calls for one tool call, in one process.
//   AI SDK (`ai` 7): what generateText does per call (bench/src/rivals/ai-sdk-tool.ts): parse the
//     input text against the tool's schema, then `executeTool`.
//   OpenAI Agents (`@openai/agents` 0.20): `FunctionTool.invoke(runContext, argumentsJson, details)`,
//     what the runner calls once approval is settled.
//   LangChain (`@langchain/core` 1.4): `tool.invoke(toolCall)`, what LangGraph's ToolNode calls.
// The adapter's rows include the container (limits, schema check, class-validator) and the
// scheduler's hop to the next turn of the event loop, where it collects the calls of one step.
import 'reflect-metadata';
import { asSchema, executeTool, safeParseJSON } from '@ai-sdk/provider-utils';
import { tool as aiTool } from 'ai';
import { RunContext, tool as agentsTool, type FunctionTool } from '@openai/agents';
import { tool as langChainTool, type StructuredToolInterface } from '@langchain/core/tools';
import * as z from 'zod';
import { ToolContainer } from '@toolwright/core';
import { toAiSdkTools } from '@toolwright/ai-sdk';
import { toOpenAiAgentsTools } from '@toolwright/openai-agents';
import { toLangChainTools } from '@toolwright/langchain';
import { BUSCAR_PEDIDO_DESCRIPTION, NUMERO_DESCRIPTION, NUMERO_PATTERN, OrderLookupTools, orderLookupManifest } from './fixtures/order-lookup.tools';
import { median, timeMs } from './lib/stats';
import { fixed, isCi, markdownTable, progress, ratio, writeSection } from './lib/report';

const CALLS = isCi ? 200 : 5_000;
const ROUNDS = isCi ? 1 : 5;
const WARMUP_CALLS = isCi ? 50 : 1_000;

const VALID = { numero: 'A-1001' };
const INVALID = { numero: '1001' };
type Input = typeof VALID;
const NAME = 'buscar_pedido';
const ID = 'call_bench';

const orders = new OrderLookupTools();
const container = new ToolContainer({ manifest: orderLookupManifest, providers: [orders] });
const zodInput = () => z.object({ numero: z.string().regex(NUMERO_PATTERN).describe(NUMERO_DESCRIPTION) });
const lookUp = async ({ numero }: Input) => JSON.stringify(await orders.buscarPedido(numero));

interface Row {
  framework: string;
  label: string;
  call(input: Input): Promise<unknown>;
}

/** An AI SDK tool with an `execute`, as `executeTool` takes it. */
type ExecutableAiTool = Parameters<typeof executeTool>[0]['tool'];

/** generateText's per-call path: parse the provider's input text against the schema, then execute. */
function viaGenerateText(tool: ExecutableAiTool): (input: Input) => Promise<unknown> {
  return async (input) => {
    const parsed = await safeParseJSON({ text: JSON.stringify(input), schema: asSchema(tool.inputSchema) });
    if (!parsed.success) return { error: parsed.error.message };
    try {
      let output: unknown;
      for await (const part of executeTool({ tool, input: parsed.value, options: { toolCallId: ID, messages: [], abortSignal: undefined, context: undefined as never } })) {
        if (part.type === 'final') output = part.output;
      }
      return output;
    } catch (error) {
      return { error: String(error) };
    }
  };
}

const runContext = new RunContext();
const viaInvoke = (tool: FunctionTool) => (input: Input) => tool.invoke(runContext, JSON.stringify(input), { toolCall: { type: 'function_call', callId: ID, name: NAME, arguments: JSON.stringify(input) } });
const viaToolCall = (tool: StructuredToolInterface) => (input: Input) => tool.invoke({ type: 'tool_call', id: ID, name: NAME, args: input }).catch((error: Error) => error.message);

const rows: Row[] = [
  { framework: 'AI SDK', label: 'tool() + zod', call: viaGenerateText(aiTool({ description: BUSCAR_PEDIDO_DESCRIPTION, inputSchema: zodInput(), execute: lookUp }) as ExecutableAiTool) },
  { framework: 'AI SDK', label: 'toAiSdkTools', call: viaGenerateText(toAiSdkTools(container)[NAME] as ExecutableAiTool) },
  { framework: 'OpenAI Agents', label: 'tool() + zod', call: viaInvoke(agentsTool({ name: NAME, description: BUSCAR_PEDIDO_DESCRIPTION, parameters: zodInput(), execute: lookUp }) as unknown as FunctionTool) },
  { framework: 'OpenAI Agents', label: 'toOpenAiAgentsTools', call: viaInvoke(toOpenAiAgentsTools(container)[0]) },
  { framework: 'LangChain', label: 'tool() + zod', call: viaToolCall(langChainTool(lookUp, { name: NAME, description: BUSCAR_PEDIDO_DESCRIPTION, schema: zodInput() })) },
  { framework: 'LangChain', label: 'toLangChainTools', call: viaToolCall(toLangChainTools(container)[0]) },
];

async function callMany(row: Row, input: Input, calls: number): Promise<void> {
  for (let i = 0; i < calls; i++) await row.call(input);
}

async function main(): Promise<void> {
  // Each path must answer what it should, or the numbers measure the wrong thing.
  for (const row of rows) {
    const text = JSON.stringify(await row.call(VALID));
    if (!text.includes('enviado')) throw new Error(`${row.framework} ${row.label}: valid input answered ${text}`);
  }
  const samples = new Map(rows.map((r) => [r, { valid: [] as number[], invalid: [] as number[] }]));
  for (const row of rows) {
    await callMany(row, VALID, WARMUP_CALLS);
    await callMany(row, INVALID, WARMUP_CALLS);
  }
  // Rounds interleave the paths so a burst of load on this shared machine hits them all alike.
  for (let round = 1; round <= ROUNDS; round++) {
    progress(`adapters round ${round}/${ROUNDS}`);
    for (const row of rows) {
      const sample = samples.get(row)!;
      sample.valid.push(((await timeMs(() => callMany(row, VALID, CALLS))) * 1000) / CALLS);
      sample.invalid.push(((await timeMs(() => callMany(row, INVALID, CALLS))) * 1000) / CALLS);
    }
  }
  const perCall = new Map([...samples].map(([row, s]) => [row, { valid: median(s.valid), invalid: median(s.invalid) }]));
  const zodOf = (framework: string) => perCall.get(rows.find((r) => r.framework === framework && r.label === 'tool() + zod')!)!;
  const table = rows.map((row) => {
    const t = perCall.get(row)!;
    const zod = zodOf(row.framework);
    return [row.framework, `\`${row.label}\``, fixed(t.valid, 2), fixed(t.invalid, 2), ratio(t.valid, zod.valid), ratio(t.invalid, zod.invalid)];
  });
  writeSection(
    'adapters',
    [
      '## Agent-framework adapters: dispatch cost per call',
      '',
      `The lesson's \`buscar_pedido\` (no I/O) as each framework's own tool with a zod schema and as toolwright's adapter, ` +
        `called through the entry point the framework's loop calls for one tool call; ${CALLS.toLocaleString('en-US')} sequential calls ` +
        `per round, median of ${ROUNDS} interleaved rounds, one process. Valid \`${JSON.stringify(VALID)}\`, invalid \`${JSON.stringify(INVALID)}\`.`,
      '',
      markdownTable(['framework', 'tool', 'valid µs/call', 'invalid µs/call', '÷ zod tool (valid)', '÷ zod tool (invalid)'], table),
      '',
      "The adapter rows pay for the container's whole pipeline (size limits, the JSON Schema check, class-validator, the result " +
        "cap, the model-facing message) and for the scheduler's hop to the next turn of the event loop, where it gathers the calls " +
        'of one step; the zod rows check the schema and call the function.',
    ].join('\n'),
  );
  for (const row of table) console.log(row.join('  '));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
