// Dispatch cost per call of the lesson's `buscar_pedido`: a bare method call, the validation
// pipeline before (class-transformer + class-validator) and after (limits → schema check →
// instance → class-validator), the validation floor (what execute must do at the least, done
// directly), `ToolContainer.execute`, the Anthropic SDK's zod tool path, and the rivals a user
// would weigh (bench/src/rivals/): the AI SDK's zod `tool()` and typia. Then a CPU profile of
// execute on valid input, and the cold start of a process: checks compiled at build time, or by
// Ajv on each tool's first call.
import 'reflect-metadata';
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
import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version';
import type { ProfileFrame } from './probes/dispatch-profile-probe';
import type { ColdStart } from './probes/cold-start-probe';
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
import { PROBES_DIR } from './lib/paths';
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
// runRunnableTool is what BetaToolRunner runs per tool_use block, eager or not (runToolsEagerly only changes when).
const SDK_ZOD = `SDK ${SDK_VERSION} betaZodTool parse + run (as its tool runner)`;
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
  { label: SDK_ZOD, call: runZodTool },
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
    { label: `SDK ${SDK_VERSION} betaZodTool (zod message)`, text: String(sdk.content) },
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
 * The first calls of fresh processes on the module tools-codegen wrote for the examples: with its
 * checks compiled at build time, and the same entries without them (an older manifest: Ajv is
 * loaded and the schema compiled on each tool's first call). Medians of the rounds.
 */
async function coldStart(): Promise<{ compiled: ColdStart; lazy: ColdStart }> {
  const runs = { compiled: [] as ColdStart[], lazy: [] as ColdStart[] };
  const probe = join(PROBES_DIR, 'cold-start-probe.js');
  for (let round = 1; round <= COLD_ROUNDS; round++) {
    progress(`dispatch: cold start ${round}/${COLD_ROUNDS}`);
    for (const mode of ['compiled', 'lazy'] as const) {
      runs[mode].push(JSON.parse((await runNode([probe, mode])).stdout) as ColdStart);
    }
  }
  const medianOf = (samples: ColdStart[]): ColdStart => ({
    importMs: median(samples.map((s) => s.importMs)),
    firstCallMs: median(samples.map((s) => s.firstCallMs)),
    secondToolFirstMs: median(samples.map((s) => s.secondToolFirstMs)),
    warmUs: median(samples.map((s) => s.warmUs)),
    secondToolWarmUs: median(samples.map((s) => s.secondToolWarmUs)),
    ajvLoaded: samples.some((s) => s.ajvLoaded),
  });
  return { compiled: medianOf(runs.compiled), lazy: medianOf(runs.lazy) };
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
  const checkFloor = perCall.get(SCHEMA_FLOOR)!;
  const zod = perCall.get(SDK_ZOD)!;
  const typiaRow = perCall.get(typia.label)!;
  const metIf = (ok: boolean) => (ok ? 'met' : 'not met');
  const texts = await errorTexts();
  const frames = await profile();
  const cold = await coldStart();
  const { compiled, lazy } = cold;
  const coldBudgetMs = 2 * (compiled.warmUs / 1000 + compiled.importMs);
  const dispatchGoals = [
    `\`ToolContainer.execute\` on valid input faster than both the SDK's zod path and typia: **${metIf(ours.valid < zod.valid && ours.valid < typiaRow.valid)}** ` +
      `(${ratio(ours.valid, zod.valid)} the SDK's, ${ratio(ours.valid, typiaRow.valid)} typia's)`,
    `\`ToolContainer.execute\` on valid input within 3× the schema-check floor: **${metIf(ours.valid <= 3 * checkFloor.valid)}** (${ratio(ours.valid, checkFloor.valid)})`,
    `\`ToolContainer.execute\` on valid input within 2× the validation floor: **${goal}** (${ratio(ours.valid, floor.valid)})`,
  ];
  const coldGoals = [
    `the first call of a process within 2× (a warm call of the same tool + the module's import): **${metIf(compiled.firstCallMs <= coldBudgetMs)}** ` +
      `(${fixed(compiled.firstCallMs, 2)} ms against ${fixed(coldBudgetMs, 2)} ms; ${ratio(compiled.firstCallMs, lazy.firstCallMs)} the first call of the older manifest)`,
    `no first-call cost per further tool (its first call within 0.1× what the older manifest's further tool pays): ` +
      `**${metIf(compiled.secondToolFirstMs <= 0.1 * lazy.secondToolFirstMs)}** (${ratio(compiled.secondToolFirstMs, lazy.secondToolFirstMs)}; ` +
      `${fixed(compiled.secondToolFirstMs * 1000, 0)} µs, ${ratio(compiled.secondToolFirstMs * 1000, compiled.secondToolWarmUs)} its warm call)`,
    `the run time loads no Ajv with compiled checks: **${metIf(!compiled.ajvLoaded)}** (the older manifest loads it: ${lazy.ajvLoaded ? 'yes' : 'no'})`,
  ];
  for (const line of [...dispatchGoals, ...coldGoals]) console.log(`dispatch goal: ${line.replace(/\*\*/g, '')}`);

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
      `This tool's input class is only whitelisted (a \`@Param\` tool's, declared bare by tools-codegen) under a schema that refuses ` +
        `unknown keys, so execute leaves class-validator out: it could refuse nothing the schema check passed. The schema-check floor ` +
        `does only the check and the instance, and returns the method's promise: no limits, no result encoding, no timeout or cancellation.`,
      '',
      'Goals (valid input, this run):',
      '',
      ...dispatchGoals.map((line) => `- ${line}.`),
      '',
      `Where execute's time goes on valid input: the ${PROFILE_FRAMES} frames with the most self time in a CPU profile ` +
        `(V8's sampling profiler, ${PROFILED_CALLS.toLocaleString('en-US')} calls in a process of their own, after a warm-up):`,
      '',
      markdownTable(['function', 'file:line', 'self %'], frames.map((f) => [`\`${f.function}\``, `\`${f.location}\``, fixed(f.selfPercent)])),
      '',
      `Cold start (fresh processes, median of ${COLD_ROUNDS}): import the module tools-codegen wrote for the examples (two tools), build the ` +
        '`ToolContainer`, call `buscar_pedido`, then `cancelar_pedido` (a second tool; its guard refuses, after validation), then warm calls of each. ' +
        'The older manifest is the same module with the entries\' `inputCheck` left out, as tools-codegen wrote them before. ' +
        'The compiled checks test the tools\' pattern (`^A-\\d{4}$`) with plain code, not a `RegExp` (see docs/validation.md).',
      '',
      markdownTable(['manifest', 'import ms', 'first call ms', 'second tool, first call ms', 'warm call µs', 'second tool, warm call µs', 'Ajv loaded'], [
        ['checks compiled at build time', fixed(compiled.importMs, 2), fixed(compiled.firstCallMs, 2), fixed(compiled.secondToolFirstMs, 2), fixed(compiled.warmUs, 2), fixed(compiled.secondToolWarmUs, 2), compiled.ajvLoaded ? 'yes' : 'no'],
        ['older manifest: Ajv compiles on each first call', fixed(lazy.importMs, 2), fixed(lazy.firstCallMs, 2), fixed(lazy.secondToolFirstMs, 2), fixed(lazy.warmUs, 2), fixed(lazy.secondToolWarmUs, 2), lazy.ajvLoaded ? 'yes' : 'no'],
      ]),
      '',
      'Goals (cold start):',
      '',
      ...coldGoals.map((line) => `- ${line}.`),
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
