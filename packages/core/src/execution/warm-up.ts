import type { ToolLogger } from '../context';
import type { InputLimits } from '../validation/plain-input';
import type { RegisteredTool } from './call.types';
import { BatchCancellation } from './cancellation';
import { invokeEnv, invokeTool } from './invoke';

let warmed = false;

const quiet: ToolLogger = { error: () => undefined, warn: () => undefined };

class WarmUpInput {
  key!: string;
}

/** A tool of toolwright's own with what the direct path leaves out: a `ToolContext`. */
const warmUpTool: RegisteredTool = {
  name: 'toolwright_warm_up',
  effect: 'read',
  definition: {
    name: 'toolwright_warm_up',
    input_schema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'], additionalProperties: false },
  },
  inputClass: WarmUpInput,
  parameters: [
    { kind: 'param', property: 'key' },
    { kind: 'ctx' },
  ],
  // Checked by hand: warming up must not load Ajv.
  inputCheck: Object.assign((input: unknown) => typeof (input as { key?: unknown }).key === 'string', { errors: null }),
  instance: { run: (key: string) => ({ key }) },
  method: 'run',
  options: { effect: 'read' },
};

/** The same tool behind a guard, which lets through every key but `refuse`. */
const guardedWarmUpTool: RegisteredTool = {
  ...warmUpTool,
  options: { effect: 'read', guard: (_ctx: unknown, input: { key: string }) => input.key !== 'refuse' },
};

/**
 * Runs the general call path (validation, `ToolContext`, guard, race, result) once per process on
 * tools of its own when a container is built: V8 compiles a function on its first call, so
 * otherwise the first call of each application tool that takes this path (a guard, a `@Ctx`) pays
 * for compiling it, on a user's request. A call without a guard, one its guard lets through and
 * one it refuses: a guard is awaited, so the last two settle in the microtasks that follow (a
 * container built outside any microtask sees its tick come first: the timer that sets is cleared
 * when they settle, and nothing is left). Nothing of it is seen: no user code, no event, no log.
 * True the one time it runs.
 */
export function warmUpGeneralPath(limits: InputLimits): boolean {
  if (warmed) return false;
  warmed = true;
  const options = { logger: quiet, timeoutMs: 60_000, limits, result: { maxChars: 100, maxMediaBlocks: 1, maxMediaChars: 100 }, maxMessageChars: 100 };
  const calls: Array<[RegisteredTool, string]> = [[warmUpTool, 'warm'], [guardedWarmUpTool, 'warm'], [guardedWarmUpTool, 'refuse']];
  for (const [tool, key] of calls) {
    invokeTool(tool, { id: 'toolu_warm_up', name: tool.name, input: { key } }, invokeEnv(tool, options), { auth: undefined, cancellation: new BatchCancellation() });
  }
  return true;
}
