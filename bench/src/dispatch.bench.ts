// Dispatch cost per call of the lesson's `buscar_pedido`: a bare method call, the raw
// class-validator floor, `ToolContainer.execute`, and the Anthropic SDK's zod tool path.
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidatorOptions } from 'class-validator';
import * as z from 'zod';
import { betaZodTool } from '@anthropic-ai/sdk/helpers/beta/zod';
import { runRunnableTool } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import type { BetaToolUseBlock } from '@anthropic-ai/sdk/resources/beta';
import type { ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ToolContainer } from '@toolwright/core';
import {
  BUSCAR_PEDIDO_DESCRIPTION,
  BuscarPedidoInput,
  NUMERO_DESCRIPTION,
  NUMERO_PATTERN,
  OrderLookupTools,
  orderLookupManifest,
} from './fixtures/order-lookup.tools';
import { median, timeMs } from './lib/stats';
import { fixed, isCi, markdownTable, progress, ratio, writeSection } from './lib/report';

const CALLS = isCi ? 500 : 100_000;
const ROUNDS = isCi ? 1 : 5;
const WARMUP_CALLS = isCi ? 100 : 10_000;

const VALID = { numero: 'A-1001' };
const INVALID = { numero: '1001' };
type Input = typeof VALID;

interface DispatchPath {
  label: string;
  /** One call, from the model's input to what would go back to it. */
  call(input: Input): Promise<unknown>;
}

const tools = new OrderLookupTools();

// The options core's validateInput passes, so the floor validates exactly as much.
const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: false,
  validationError: { target: false },
};

const container = new ToolContainer({ manifest: orderLookupManifest, providers: [tools] });
const toolUse = (input: Input): ToolUseBlockParam => ({ type: 'tool_use', id: 'toolu_bench', name: 'buscar_pedido', input });

const zodTool = betaZodTool({
  name: 'buscar_pedido',
  description: BUSCAR_PEDIDO_DESCRIPTION,
  inputSchema: z.object({ numero: z.string().regex(NUMERO_PATTERN).describe(NUMERO_DESCRIPTION) }),
  // The SDK's run must return text, so the JSON encoding our container does is done here too.
  run: async (args) => JSON.stringify(await tools.buscarPedido(args.numero)),
});
const zodToolUse: BetaToolUseBlock = { type: 'tool_use', id: 'toolu_bench', name: 'buscar_pedido', input: VALID, caller: { type: 'direct' } };
// What BetaToolRunner does per tool_use block: runRunnableTool (parse, then run), then a tool_result.
const runZodTool = async (input: Input) => {
  const outcome = await runRunnableTool(zodTool, input, { toolUse: zodToolUse, toolUseBlock: zodToolUse });
  return { type: 'tool_result', tool_use_id: 'toolu_bench', content: outcome.content, ...(outcome.isError ? { is_error: true } : {}) };
};

const OURS = 'ToolContainer.execute';
const paths: DispatchPath[] = [
  { label: 'bare method call (floor)', call: (input) => tools.buscarPedido(input.numero) },
  {
    label: 'class-validator plainToInstance + validate (validation floor)',
    call: async (input) => {
      const instance = plainToInstance(BuscarPedidoInput, input);
      const errors = await validate(instance, VALIDATOR_OPTIONS);
      return errors.length === 0 ? tools.buscarPedido(instance.numero) : errors;
    },
  },
  { label: OURS, call: async (input) => (await container.execute([toolUse(input)]))[0] },
  { label: 'SDK betaZodTool parse + run (as its tool runner)', call: runZodTool },
];

async function callMany(path: DispatchPath, input: Input, calls: number): Promise<void> {
  for (let i = 0; i < calls; i++) await path.call(input);
}

async function measure(): Promise<Map<string, { valid: number; invalid: number }>> {
  const samples = new Map(paths.map((p) => [p.label, { valid: [] as number[], invalid: [] as number[] }]));
  for (const path of paths) {
    await callMany(path, VALID, WARMUP_CALLS);
    await callMany(path, INVALID, WARMUP_CALLS);
  }
  // Rounds interleave the paths so a burst of load on this shared machine hits them all alike.
  for (let round = 1; round <= ROUNDS; round++) {
    progress(`dispatch round ${round}/${ROUNDS}`);
    for (const path of paths) {
      const sample = samples.get(path.label)!;
      sample.valid.push(((await timeMs(() => callMany(path, VALID, CALLS))) * 1000) / CALLS);
      sample.invalid.push(((await timeMs(() => callMany(path, INVALID, CALLS))) * 1000) / CALLS);
    }
  }
  return new Map([...samples].map(([label, s]) => [label, { valid: median(s.valid), invalid: median(s.invalid) }]));
}

/** The text the model reads back for one invalid input: it is paid for in tokens on every retry. */
async function errorTexts(): Promise<Array<{ label: string; text: string }>> {
  const [ours] = await container.execute([toolUse(INVALID)]);
  const sdk = await runZodTool(INVALID);
  if (!ours.is_error || !sdk.is_error) throw new Error('an invalid input was accepted; the benchmark input is wrong');
  return [
    { label: OURS, text: String(ours.content) },
    { label: 'SDK betaZodTool (zod message)', text: String(sdk.content) },
  ];
}

async function main(): Promise<void> {
  const perCall = await measure();
  const ours = perCall.get(OURS)!;
  const rows = paths.map((path) => {
    const { valid, invalid } = perCall.get(path.label)!;
    return [path.label, fixed(valid, 2), fixed(invalid, 2), ratio(ours.valid, valid), ratio(ours.invalid, invalid)];
  });
  const floor = perCall.get(paths[1].label)!;
  const withinGoal = ours.valid <= 2 * floor.valid && ours.invalid <= 2 * floor.invalid;
  const texts = await errorTexts();

  writeSection(
    'dispatch',
    [
      '## 1. Dispatch cost per call',
      '',
      `The lesson's \`buscar_pedido\` (pattern \`${NUMERO_PATTERN.source}\`, no I/O), ${CALLS.toLocaleString('en-US')} sequential calls per round, ` +
        `median of ${ROUNDS} interleaved rounds. Valid input \`${JSON.stringify(VALID)}\`, invalid \`${JSON.stringify(INVALID)}\`.`,
      '',
      markdownTable(['path', 'valid µs/call', 'invalid µs/call', 'ours ÷ this (valid)', 'ours ÷ this (invalid)'], rows),
      '',
      `Goal, ours within 2× of the class-validator floor: **${withinGoal ? 'met' : 'not met'}** ` +
        `(${ratio(ours.valid, floor.valid)} valid, ${ratio(ours.invalid, floor.invalid)} invalid).`,
      '',
      'Error text the model receives for the invalid input:',
      '',
      markdownTable(['path', 'characters'], texts.map((t) => [t.label, String(t.text.length)])),
      '',
      ...texts.flatMap((t) => [`${t.label}:`, '', '```text', t.text, '```', '']),
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
