import { validateInput } from '../validation/validate-input';
import { bindArguments } from '../validation/bind-arguments';
import type { InputLimits } from '../validation/plain-input';
import type { ToolContext, ToolLogger } from '../context';
import { isToolError } from './tool-error';
import { capText, shapeResult, shapeToolErrorContent, type ResultLimits } from './result';
import { modelMessages } from './messages';
import { echo } from './echo';
import { answer, type CallResult, type RegisteredTool, type ToolCall } from './call.types';
import { LazyAbort, type BatchCancellation } from './cancellation';

export interface InvokeEnv {
  auth: unknown;
  /** Cancelling the batch cancels this call. */
  cancellation: BatchCancellation;
  /** Never throws (see `safeLogger`). */
  logger: ToolLogger;
  timeoutMs: number;
  limits: InputLimits;
  /** For what the tool produces: a returned value, a `ToolError`. */
  result: ResultLimits;
  /** For what toolwright writes (validation messages): the container's cap, not the tool's own. */
  maxMessageChars: number;
}

type Settled =
  | { kind: 'returned'; value: unknown }
  | { kind: 'refused' }
  | { kind: 'threw'; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'cancelled' };

/**
 * One call: validate → guard → method, bounded by its timeout and the batch's signal. Resolves
 * with this call's answer whatever its code throws or returns; it never rejects, so one call's
 * failure cannot reach the answers of the others.
 */
export async function invokeTool(tool: RegisteredTool, call: ToolCall, env: InvokeEnv): Promise<CallResult> {
  let step: 'validation' | 'result' = 'validation';
  try {
    // User code runs during validation too (a @Transform, a custom constraint): when it throws,
    // this call fails alone.
    const checked = await validateInput(call.input, tool, env.limits);
    if (!checked.ok) return answer(call, 'invalid_input', capText(checked.message, env.maxMessageChars));
    if (env.cancellation.aborted) return answer(call, 'cancelled', modelMessages.cancelled(false, tool.effect === 'write'));
    const settled = await runBounded(tool, call, env, checked.value);
    step = 'result';
    return answerFor(tool, call, env, settled);
  } catch (error) {
    return internalError(tool, call, env.logger, error, step);
  }
}

/** Guard and method with the call's `ToolContext`, within its timeout and the batch's signal. */
function runBounded(tool: RegisteredTool, call: ToolCall, env: InvokeEnv, input: object): Promise<Settled> {
  const abort = new LazyAbort();
  const ctx: ToolContext<unknown> = {
    toolUseId: call.id,
    toolName: tool.name,
    auth: env.auth,
    get signal() {
      return abort.signal;
    },
    logger: env.logger,
  };
  return settleWithin(() => run(tool, ctx, abort, input, env.timeoutMs), abort, env, () => `${tool.name} (${echo(call.id)})`);
}

/**
 * What the model reads. Everything the tool handed over is inspected here, where a value whose
 * inspection throws (a Proxy, a throwing getter) becomes this call's internal error.
 */
function answerFor(tool: RegisteredTool, call: ToolCall, env: InvokeEnv, settled: Settled): CallResult {
  switch (settled.kind) {
    case 'refused':
      return answer(call, 'refused', modelMessages.notAllowed(tool.name));
    case 'timeout':
      return answer(call, 'timeout', modelMessages.timedOut(env.timeoutMs, tool.effect === 'write'));
    case 'cancelled':
      return answer(call, 'cancelled', modelMessages.cancelled(true, tool.effect === 'write'));
    case 'threw':
      if (isToolError(settled.error)) return answer(call, 'tool_error', shapeToolErrorContent(settled.error.content, env.result));
      return internalError(tool, call, env.logger, settled.error, 'method');
    case 'returned':
      return { ...answer(call, 'ok', shapeResult(settled.value, env.result)), value: settled.value };
  }
}

async function run(tool: RegisteredTool, ctx: ToolContext<unknown>, abort: LazyAbort, input: object, timeoutMs: number): Promise<Settled> {
  const guard = tool.options.guard;
  if (guard) {
    const deadline = performance.now() + timeoutMs;
    if (!(await guard.call(tool.instance, ctx, input))) return { kind: 'refused' };
    // The call may have been abandoned (timed out, cancelled) while its guard was pending: its
    // answer is already given, and a method started now would run beside the calls after it.
    if (abort.aborted) return { kind: 'cancelled' };
    // A guard that blocked the event loop past the deadline kept the timer from firing: its
    // callback waits behind this continuation. The clock is read here, so the method never starts.
    if (performance.now() >= deadline) {
      abort.abort(new Error(`timed out after ${timeoutMs} ms`));
      return { kind: 'timeout' };
    }
  }
  const method = (tool.instance as Record<string, (...args: unknown[]) => unknown>)[tool.method];
  const value = await method.apply(tool.instance, bindArguments(tool.parameters, input, ctx));
  return { kind: 'returned', value };
}

/**
 * Starts the work and waits for it, its timeout or the batch's cancellation, whichever comes
 * first. A tool that never settles cannot hold the batch; one that fails after being abandoned is
 * still logged. The timer and the abort listener are in place before the work starts, so an abort
 * from inside the guard or the method is seen at once.
 */
function settleWithin(start: () => Promise<Settled>, abort: LazyAbort, env: InvokeEnv, label: () => string): Promise<Settled> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (settled: Settled) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      resolve(settled);
    };
    const timer = setTimeout(() => {
      abort.abort(new Error(`timed out after ${env.timeoutMs} ms`));
      finish({ kind: 'timeout' });
    }, env.timeoutMs);
    const unsubscribe = env.cancellation.onCancel(() => {
      abort.abort(env.cancellation.reason);
      finish({ kind: 'cancelled' });
    });
    start().then(finish, (error: unknown) => {
      if (done) env.logger.warn(`toolwright: ${label()} failed after it was abandoned:`, error);
      finish({ kind: 'threw', error });
    });
  });
}

function internalError(tool: RegisteredTool, call: ToolCall, logger: ToolLogger, error: unknown, step: 'validation' | 'method' | 'result'): CallResult {
  const where = step === 'result' ? ' (its result could not be sent)' : step === 'validation' ? ' during validation' : '';
  logger.error(`toolwright: tool ${tool.name} (${echo(call.id)}) failed${where}:`, error);
  return answer(call, 'internal_error', modelMessages.internal(tool.name));
}
