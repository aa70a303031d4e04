import { validateInput, type InputCheck } from '../validation/validate-input';
import { bindArguments } from '../validation/bind-arguments';
import type { ToolContext, ToolLogger } from '../context';
import { ToolError } from './tool-error';
import { shapeResult } from './result';
import { modelMessages } from './messages';
import { answer, type CallResult, type RegisteredTool, type ToolCall } from './call.types';
import { LazyAbort, type BatchCancellation } from './cancellation';

export interface InvokeEnv {
  auth: unknown;
  /** Cancelling the batch cancels this call. */
  cancellation: BatchCancellation;
  logger: ToolLogger;
  timeoutMs: number;
  maxResultChars: number;
}

type Settled =
  | { kind: 'returned'; value: unknown }
  | { kind: 'refused' }
  | { kind: 'threw'; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'cancelled' };

/** One call: validate → guard → method, bounded by its timeout and the batch's signal. */
export async function invokeTool(tool: RegisteredTool, call: ToolCall, env: InvokeEnv): Promise<CallResult> {
  let checked: InputCheck;
  try {
    checked = await validateInput(call.input, tool);
  } catch (error) {
    // User code runs during validation too (a @Transform, a custom constraint); when it throws,
    // this call fails alone instead of taking the whole batch down with it.
    return internalError(tool, call, env.logger, error);
  }
  if (!checked.ok) return answer(call, 'invalid_input', checked.message);
  if (env.cancellation.aborted) return answer(call, 'cancelled', modelMessages.cancelled(false, tool.effect === 'write'));

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
  const input = checked.value;
  const settled = await settleWithin(() => run(tool, ctx, abort, input), abort, env, () => `${tool.name} (${call.id})`);

  switch (settled.kind) {
    case 'refused':
      return answer(call, 'refused', modelMessages.notAllowed(tool.name));
    case 'timeout':
      return answer(call, 'timeout', modelMessages.timedOut(env.timeoutMs, tool.effect === 'write'));
    case 'cancelled':
      return answer(call, 'cancelled', modelMessages.cancelled(true, tool.effect === 'write'));
    case 'threw':
      if (settled.error instanceof ToolError) return answer(call, 'tool_error', settled.error.content);
      return internalError(tool, call, env.logger, settled.error);
    case 'returned':
      try {
        return { ...answer(call, 'ok', shapeResult(settled.value, env.maxResultChars)), value: settled.value };
      } catch (error) {
        return internalError(tool, call, env.logger, error);
      }
  }
}

async function run(tool: RegisteredTool, ctx: ToolContext<unknown>, abort: LazyAbort, input: object): Promise<Settled> {
  if (tool.options.guard && !(await tool.options.guard.call(tool.instance, ctx, input))) return { kind: 'refused' };
  // The call may have been abandoned (timed out, cancelled) while its guard was pending: its
  // answer is already given, and a method started now would run beside the calls after it.
  if (abort.aborted) return { kind: 'cancelled' };
  const method = (tool.instance as Record<string, (...args: unknown[]) => unknown>)[tool.method];
  const value = await method.apply(tool.instance, bindArguments(tool.parameters, input, ctx));
  return { kind: 'returned', value };
}

/**
 * Starts the work and waits for it, its timeout or the batch's cancellation, whichever comes
 * first. A tool that never settles cannot hold the batch; one that fails after being abandoned is
 * still logged. The timer and the abort listener are in place before the work starts, so an abort
 * or a long stretch of synchronous code inside the guard or the method is still seen.
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

function internalError(tool: RegisteredTool, call: ToolCall, logger: ToolLogger, error: unknown): CallResult {
  logger.error(`toolwright: tool ${tool.name} (${call.id}) failed:`, error);
  return answer(call, 'internal_error', modelMessages.internal(tool.name));
}
