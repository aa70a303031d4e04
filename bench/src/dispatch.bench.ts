// Dispatch cost per call of the lesson's `buscar_pedido`: a bare method call, the validation
// pipeline before (class-transformer + class-validator) and after (limits → schema check →
// instance → class-validator), the validation floor (what execute must do at the least, done
// directly), `ToolContainer.execute`, the Anthropic SDK's zod tool path, and the rivals a user
// would weigh (bench/src/rivals/): the AI SDK's zod `tool()` and typia. Then a CPU profile of
// execute on valid input, and the cold start of the schema check: compiled on a tool's first
// call, or at build time.
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidatorOptions } from 'class-validator';
import * as z from 'zod';
import { betaZodTool } from '@anthropic-ai/sdk/helpers/beta/zod';
import { runRunnableTool } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import type { BetaToolUseBlock } from '@anthropic-ai/sdk/resources/beta';
import type { ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ToolContainer } from '@toolwright/core';
import { DEFAULT_INPUT_LIMITS, checkPlainInput } from '../../packages/core/dist/validation/plain-input';
import { validateInput } from '../../packages/core/dist/validation/validate-input';
import { schemaCheck } from '../../packages/core/dist/validation/schema-check';
import type { ProfileFrame } from './probes/dispatch-profile-probe';
import {
  BUSCAR_PEDIDO_DESCRIPTION,
  BuscarPedidoInput,
  BuscarPedidoInputBefore,
  BuscarPedidoInputWhitelisted,
  NUMERO_DESCRIPTION,
  NUMERO_PATTERN,
  OrderLookupTools,
  orderLookupManifest,
} from './fixtures/order-lookup.tools';
import { runNode } from './lib/child';
import { PROBES_DIR, WORK_DIR } from './lib/paths';
import { median, timeMs } from './lib/stats';
import { fixed, isCi, markdownTable, progress, ratio, writeSection } from './lib/report';
import { aiSdkToolPath } from './rivals/ai-sdk-tool';
import { TOOL_CALL_ID } from './rivals/rival-path';
import { typiaValidatePath } from './rivals/typia-validate';

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
const toolUse = (input: Input): ToolUseBlockParam => ({ type: 'tool_use', id: TOOL_CALL_ID, name: 'buscar_pedido', input });

const zodTool = betaZodTool({
  name: 'buscar_pedido',
  description: BUSCAR_PEDIDO_DESCRIPTION,
  inputSchema: z.object({ numero: z.string().regex(NUMERO_PATTERN).describe(NUMERO_DESCRIPTION) }),
  // The SDK's run must return text, so the JSON encoding our container does is done here too.
  run: async (args) => JSON.stringify(await tools.buscarPedido(args.numero)),
});
const zodToolUse: BetaToolUseBlock = { type: 'tool_use', id: TOOL_CALL_ID, name: 'buscar_pedido', input: VALID, caller: { type: 'direct' } };
// What BetaToolRunner does per tool_use block: runRunnableTool (parse, then run), then a tool_result.
const runZodTool = async (input: Input) => {
  const outcome = await runRunnableTool(zodTool, input, { toolUse: zodToolUse, toolUseBlock: zodToolUse });
  return { type: 'tool_result', tool_use_id: TOOL_CALL_ID, content: outcome.content, ...(outcome.isError ? { is_error: true } : {}) };
};

const entry = orderLookupManifest.entries[0];
const contract = { name: entry.definition.name, definition: entry.definition, inputClass: entry.inputClass, parameters: entry.parameters, instancePlan: entry.instancePlan };

// The same compiled Ajv function core checks this tool's input with.
const schemaFloor = schemaCheck(entry.definition.input_schema);

const OURS = 'ToolContainer.execute';
const FLOOR = 'validation floor: compiled schema check + instance + class-validator validate';
const SCHEMA_FLOOR = 'schema-check floor: compiled schema check + instance, no class-validator';
const BEFORE = 'before: limits + class-transformer plainToInstance + class-validator validate';
const AFTER = 'after: validateInput (limits → schema check → instance → class-validator)';
const aiSdk = aiSdkToolPath(tools);
const typia = typiaValidatePath(tools);
const paths: DispatchPath[] = [
  { label: 'bare method call (floor)', call: (input) => tools.buscarPedido(input.numero) },
  {
    // The pipeline validateInput ran before the schema check, on the class tools-codegen emitted then.
    label: BEFORE,
    call: async (input) => {
      const refused = checkPlainInput(input, DEFAULT_INPUT_LIMITS);
      if (refused) return refused;
      const instance = plainToInstance(BuscarPedidoInputBefore, input);
      const errors = await validate(instance, VALIDATOR_OPTIONS);
      return errors.length === 0 ? tools.buscarPedido(instance.numero) : errors;
    },
  },
  {
    label: AFTER,
    call: async (input) => {
      const checked = await validateInput(input, contract, DEFAULT_INPUT_LIMITS);
      return checked.ok ? tools.buscarPedido((checked.value as { numero: string }).numero) : checked.message;
    },
  },
  {
    // What execute cannot do without, written out: the tool's compiled schema check, its input
    // class instance, class-validator with core's options, the method.
    label: FLOOR,
    call: async (input) => {
      if (!schemaFloor(input)) return schemaFloor.errors;
      const instance = Object.assign(new BuscarPedidoInputWhitelisted(), input);
      const errors = await validate(instance, VALIDATOR_OPTIONS);
      return errors.length === 0 ? tools.buscarPedido(instance.numero) : errors;
    },
  },
  {
    // What execute does for this tool: its input class carries only the whitelist under a schema
    // that refuses unknown keys, so class-validator could refuse nothing and is left out.
    label: SCHEMA_FLOOR,
    call: async (input) => {
      if (!schemaFloor(input)) return schemaFloor.errors;
      const instance = Object.assign(new BuscarPedidoInput(), input);
      return tools.buscarPedido(instance.numero);
    },
  },
  { label: OURS, call: async (input) => (await container.execute([toolUse(input)]))[0] },
  { label: 'SDK betaZodTool parse + run (as its tool runner)', call: runZodTool },
  aiSdk,
  typia,
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
  const rivals = await Promise.all([aiSdk, typia].map(async (rival) => ({ label: rival.label, result: await rival.call(INVALID) })));
  if (!ours.is_error || !sdk.is_error || rivals.some((r) => !r.result.is_error)) throw new Error('an invalid input was accepted; the benchmark input is wrong');
  return [
    { label: OURS, text: String(ours.content) },
    { label: 'SDK betaZodTool (zod message)', text: String(sdk.content) },
    ...rivals.map((r) => ({ label: r.label, text: r.result.content })),
  ];
}

const PROFILED_CALLS = isCi ? 2_000 : 300_000;
const PROFILE_FRAMES = 10;

/** The frames with the most self time in `execute` on valid input, from a process of their own. */
async function profile(): Promise<ProfileFrame[]> {
  progress('dispatch: CPU profile of execute');
  const run = await runNode([join(PROBES_DIR, 'dispatch-profile-probe.js'), String(PROFILED_CALLS), String(PROFILE_FRAMES)]);
  return JSON.parse(run.stdout.split('\n')[0]) as ProfileFrame[];
}

const COLD_ROUNDS = isCi ? 1 : 7;

/**
 * The schema check's cold start in fresh processes: compiled lazily on a tool's first call (what
 * core does), or compiled at build time into a module (Ajv standalone) that is only required.
 */
async function coldStart(): Promise<{ lazyFirst: number; lazyNext: number; standalone: number }> {
  const dir = join(WORK_DIR, 'schema-check');
  mkdirSync(dir, { recursive: true });
  const schemaFile = join(dir, 'schema.json');
  writeFileSync(schemaFile, JSON.stringify(entry.definition.input_schema));
  const { default: Ajv } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
  const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
  const { default: standaloneCode } = require('ajv/dist/standalone') as typeof import('ajv/dist/standalone');
  const ajv = new Ajv({ allErrors: true, strict: false, code: { source: true, formats: require('ajv/dist/compile/codegen')._`require("ajv-formats/dist/formats").fullFormats` } });
  addFormats(ajv, { mode: 'full' });
  const validatorFile = join(dir, 'validator.js');
  writeFileSync(validatorFile, standaloneCode(ajv, ajv.compile(entry.definition.input_schema)));
  const lazy: Array<{ firstCallMs: number; secondToolMs: number }> = [];
  const standalone: number[] = [];
  for (let round = 1; round <= COLD_ROUNDS; round++) {
    progress(`dispatch: schema check cold start ${round}/${COLD_ROUNDS}`);
    lazy.push(JSON.parse((await runNode([join(PROBES_DIR, 'schema-check-probe.js'), 'lazy', schemaFile])).stdout));
    standalone.push(JSON.parse((await runNode([join(PROBES_DIR, 'schema-check-probe.js'), 'standalone', validatorFile], { cwd: WORK_DIR })).stdout).firstCallMs);
  }
  return { lazyFirst: median(lazy.map((r) => r.firstCallMs)), lazyNext: median(lazy.map((r) => r.secondToolMs)), standalone: median(standalone) };
}

async function main(): Promise<void> {
  const perCall = await measure();
  const before = perCall.get(BEFORE)!;
  const floor = perCall.get(FLOOR)!;
  const rows = paths.map((path) => {
    const { valid, invalid } = perCall.get(path.label)!;
    return [path.label, fixed(valid, 2), fixed(invalid, 2), ratio(valid, before.valid), ratio(invalid, before.invalid), ratio(valid, floor.valid)];
  });
  const after = perCall.get(AFTER)!;
  const ours = perCall.get(OURS)!;
  const goal = ours.valid / floor.valid <= 2 ? 'met' : 'not met';
  const texts = await errorTexts();
  const frames = await profile();
  const cold = await coldStart();

  writeSection(
    'dispatch',
    [
      '## 1. Dispatch cost per call',
      '',
      `The lesson's \`buscar_pedido\` (pattern \`${NUMERO_PATTERN.source}\`, no I/O), ${CALLS.toLocaleString('en-US')} sequential calls per round, ` +
        `median of ${ROUNDS} interleaved rounds. Valid input \`${JSON.stringify(VALID)}\`, invalid \`${JSON.stringify(INVALID)}\`.`,
      '',
      markdownTable(['path', 'valid µs/call', 'invalid µs/call', 'this ÷ before (valid)', 'this ÷ before (invalid)', 'this ÷ floor (valid)'], rows),
      '',
      `The validation pipeline after ÷ before: **${ratio(after.valid, before.valid)}** valid, **${ratio(after.invalid, before.invalid)}** invalid.`,
      '',
      `Goal: \`ToolContainer.execute\` on valid input within 2× the validation floor measured in the same run: ` +
        `**${ratio(ours.valid, floor.valid)}**, goal **${goal}**. ` +
        `This tool's input class is only whitelisted (a \`@Param\` tool's, declared bare by tools-codegen) under a schema that refuses ` +
        `unknown keys, so execute leaves class-validator out: it could refuse nothing the schema check passed. Against the ` +
        `schema-check floor, which does only that, execute takes **${ratio(ours.valid, perCall.get(SCHEMA_FLOOR)!.valid)}**.`,
      '',
      `Where execute's time goes on valid input: the ${PROFILE_FRAMES} frames with the most self time in a CPU profile ` +
        `(V8's sampling profiler, ${PROFILED_CALLS.toLocaleString('en-US')} calls in a process of their own, after a warm-up):`,
      '',
      markdownTable(['function', 'file:line', 'self %'], frames.map((f) => [`\`${f.function}\``, `\`${f.location}\``, fixed(f.selfPercent)])),
      '',
      `Cold start of the schema check (fresh processes, median of ${COLD_ROUNDS}):`,
      '',
      markdownTable(['how the check is compiled', 'first call ms', '÷ build time'], [
        ['at run time, on the first call (loads Ajv + ajv-formats, compiles)', fixed(cold.lazyFirst, 2), ratio(cold.lazyFirst, cold.standalone)],
        ['at run time, first call of a second tool (Ajv loaded)', fixed(cold.lazyNext, 2), ratio(cold.lazyNext, cold.standalone)],
        ['at build time (Ajv standalone module, required)', fixed(cold.standalone, 2), ratio(cold.standalone, cold.standalone)],
      ]),
      '',
      'Error text the model receives for the invalid input:',
      '',
      markdownTable(['path', 'characters'], texts.map((t) => [t.label, String(t.text.length)])),
      '',
      // A fence longer than any backtick run in the text: typia's feedback is itself a fenced block.
      ...texts.flatMap((t) => {
        const fence = '`'.repeat(Math.max(3, ...(t.text.match(/`+/g) ?? []).map((run) => run.length + 1)));
        return [`${t.label}:`, '', `${fence}text`, t.text, fence, ''];
      }),
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
