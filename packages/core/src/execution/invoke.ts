import { validateInput } from '../validation/validate-input';
import { bindArguments } from '../validation/bind-arguments';
import type { InputLimits } from '../validation/plain-input';
import type { ElicitationAnswer, ElicitationRequest, ToolClient, ToolContext, ToolLogLevel, ToolLogger } from '../context';
import { isToolError } from './tool-error';
import { capText, mcpBlocksOf, shapeResult, shapeToolErrorContent, type ResultLimits } from './result';
import { modelMessages } from './messages';
import { echo } from './echo';
import { answer, type CallResult, type RegisteredTool, type ToolCall } from './call.types';
import { LazyAbort, type BatchCancellation } from './cancellation';
import { enroll, withdraw, type Watched } from './after-microtasks';

export interface InvokeEnv {
  auth: unknown;
  /** The caller's client, when it has one (MCP). */
  client?: ToolClient;
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
    const verdict = validateInput(call.input, tool, env.limits);
    const checked = verdict instanceof Promise ? await verdict : verdict;
    if (!checked.ok) return answer(call, 'invalid_input', capText(checked.message, env.maxMessageChars));
    if (env.cancellation.aborted) return answer(call, 'cancelled', modelMessages.cancelled(false, tool.effect === 'write'));
    const bounded = runBounded(tool, call, env, checked.value);
    // A method that returned a value settles at once: awaiting it anyway would cost a turn of the microtask queue.
    const settled = bounded instanceof Promise ? await bounded : bounded;
    step = 'result';
    return answerFor(tool, call, env, settled);
  } catch (error) {
    return internalError(tool, call, env.logger, error, step);
  }
}

/** Guard and method with the call's `ToolContext`, within its timeout and the batch's signal. */
function runBounded(tool: RegisteredTool, call: ToolCall, env: InvokeEnv, input: object): Settled | Promise<Settled> {
  const abort = new LazyAbort();
  const deadline = performance.now() + env.timeoutMs;
  const race = new CallRace(abort, env, deadline, tool, call);
  const ctx = new CallContext(call.id, tool.name, env.auth, env.logger, race, env.client);
  let work: Work;
  try {
    work = tool.options.guard ? guarded(tool, ctx, abort, env, input, deadline) : callMethod(tool, ctx, input);
  } catch (error) {
    work = { kind: 'threw', error };
  }
  return race.settle(work);
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
      if (isToolError(settled.error)) {
        const failed = answer(call, 'tool_error', shapeToolErrorContent(settled.error.content, env.result));
        const blocks = mcpBlocksOf(settled.error.content, env.result);
        if (blocks) failed.blocks = blocks;
        return failed;
      }
      return internalError(tool, call, env.logger, settled.error, 'method');
    case 'returned': {
      const ok = answer(call, 'ok', shapeResult(settled.value, env.result));
      ok.value = settled.value;
      const blocks = mcpBlocksOf(settled.value, env.result);
      if (blocks) ok.blocks = blocks;
      return ok;
    }
  }
}

/** What the method handed back: a value, or a promise of one. */
type MethodOutcome = Settled | { kind: 'returning'; value: Promise<unknown> };
/** A guarded call is a promise of its outcome from the start. */
type Work = MethodOutcome | Promise<Settled>;

/** The method, synchronous when it returns anything but a promise or a thenable, which is awaited (adopted). */
function callMethod(tool: RegisteredTool, ctx: ToolContext<unknown>, input: object): MethodOutcome {
  const method = (tool.instance as Record<string, (...args: unknown[]) => unknown>)[tool.method];
  const value = method.apply(tool.instance, bindArguments(tool.parameters, input, ctx));
  if (value instanceof Promise) return { kind: 'returning', value };
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return returned(value);
  // Read once, as promise resolution would read it: a getter that throws fails this call alone.
  const then = (value as { then?: unknown }).then;
  if (typeof then !== 'function') return returned(value);
  return { kind: 'returning', value: Promise.resolve(value) };
}

async function guarded(tool: RegisteredTool, ctx: ToolContext<unknown>, abort: LazyAbort, env: InvokeEnv, input: object, deadline: number): Promise<Settled> {
  if (!(await tool.options.guard!.call(tool.instance, ctx, input))) return { kind: 'refused' };
  // The call may have been abandoned (timed out, cancelled) while its guard was pending: its
  // answer is already given, and a method started now would run beside the calls after it.
  if (abort.aborted || env.cancellation.aborted) return { kind: 'cancelled' };
  // A guard that blocked the event loop past the deadline kept the timer from firing: its
  // callback waits behind this continuation. The clock is read here, so the method never starts.
  if (performance.now() >= deadline) {
    abort.abort(new Error(`timed out after ${env.timeoutMs} ms`));
    return { kind: 'timeout' };
  }
  const work = callMethod(tool, ctx, input);
  return work.kind === 'returning' ? work.value.then(returned) : work;
}

const returned = (value: unknown): Settled => ({ kind: 'returned', value });

/** Work that ended while its batch was being cancelled answers as cancelled, as if it had been abandoned. */
function cancelNow(abort: LazyAbort, env: InvokeEnv): Settled {
  abort.abort(env.cancellation.reason);
  return { kind: 'cancelled' };
}

/** What the method receives as `@Ctx()`; the signal is made on first read (see `LazyAbort`). */
class CallContext implements ToolContext<unknown> {
  readonly #race: CallRace;

  constructor(
    readonly toolUseId: string,
    readonly toolName: string,
    readonly auth: unknown,
    readonly logger: ToolLogger,
    race: CallRace,
    client?: ToolClient,
  ) {
    this.#race = race;
    this.#client = client;
    const elicit = client?.elicit;
    if (elicit) this.elicit = (request) => elicit.call(client, request);
  }

  readonly #client: ToolClient | undefined;
  readonly elicit?: (request: ElicitationRequest) => Promise<ElicitationAnswer>;

  get signal(): AbortSignal {
    return this.#race.signal();
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    return this.#quietly('progress', () => this.#client?.progress?.(progress, total, message));
  }

  log(level: ToolLogLevel, data: unknown): Promise<void> {
    return this.#quietly('log', () => this.#client?.log?.(level, data));
  }

  /** A client that went away must not fail the call that tried to tell it something. */
  async #quietly(what: string, send: () => Promise<void> | undefined): Promise<void> {
    try {
      await send();
    } catch (error) {
      this.logger.warn(`toolwright: ${this.toolName} (${echo(this.toolUseId)}): ctx.${what} could not reach the client:`, error);
    }
  }
}

/**
 * The first of: the work settles, its deadline passes, its batch is cancelled. The timer and the
 * batch listener are set only for work still pending once the microtasks queued with it have run
 * (the deadline counts from the start all the same), or as soon as the tool reads its signal:
 * most calls settle before either could fire, and a timer costs more than the rest of the call.
 * A tool that never settles cannot hold the batch; one that fails after being abandoned is still
 * logged. Cancellation that came while the work ran is seen when it settles.
 */
class CallRace implements Watched {
  watchSlot = -1;
  private outcome: Settled | undefined = undefined;
  private resolve: ((settled: Settled) => void) | undefined = undefined;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;
  private unfollow: (() => void) | undefined = undefined;

  constructor(
    private readonly abort: LazyAbort,
    private readonly env: InvokeEnv,
    private readonly deadline: number,
    private readonly tool: RegisteredTool,
    private readonly call: ToolCall,
  ) {}

  settle(work: Work): Settled | Promise<Settled> {
    if (!(work instanceof Promise) && work.kind !== 'returning') {
      this.finish(this.env.cancellation.aborted ? cancelNow(this.abort, this.env) : work);
      return this.outcome!;
    }
    const fromMethod = !(work instanceof Promise);
    const pending: Promise<unknown> = fromMethod ? work.value : work;
    pending.then(
      (value) => this.finish(this.env.cancellation.aborted ? cancelNow(this.abort, this.env) : fromMethod ? returned(value) : (value as Settled)),
      (error: unknown) => {
        if (this.outcome) this.env.logger.warn(`toolwright: ${this.tool.name} (${echo(this.call.id)}) failed after it was abandoned:`, error);
        this.finish({ kind: 'threw', error });
      },
    );
    if (this.outcome) return this.outcome;
    enroll(this);
    return new Promise((resolve) => (this.resolve = resolve));
  }

  /** The call's signal; a tool that watches it sees the batch's cancellation the moment it happens. */
  signal(): AbortSignal {
    this.follow();
    return this.abort.signal;
  }

  /** From now on the batch's cancellation ends this call at once; now, if it already came. */
  follow(): void {
    if (this.outcome || this.unfollow) return;
    if (this.env.cancellation.aborted) return this.finish(cancelNow(this.abort, this.env));
    this.unfollow = this.env.cancellation.onCancel(() => this.finish(cancelNow(this.abort, this.env)));
  }

  /** For work still pending once the microtasks have run: the batch's cancellation and the deadline. */
  watch(): void {
    this.follow();
    if (this.outcome) return;
    this.timer = setTimeout(() => {
      this.abort.abort(new Error(`timed out after ${this.env.timeoutMs} ms`));
      this.finish({ kind: 'timeout' });
    }, Math.max(0, this.deadline - performance.now()));
  }

  private finish(settled: Settled): void {
    if (this.outcome) return;
    this.outcome = settled;
    withdraw(this);
    if (this.timer) clearTimeout(this.timer);
    this.unfollow?.();
    this.resolve?.(settled);
  }
}

function internalError(tool: RegisteredTool, call: ToolCall, logger: ToolLogger, error: unknown, step: 'validation' | 'method' | 'result'): CallResult {
  const where = step === 'result' ? ' (its result could not be sent)' : step === 'validation' ? ' during validation' : '';
  logger.error(`toolwright: tool ${tool.name} (${echo(call.id)}) failed${where}:`, error);
  return answer(call, 'internal_error', modelMessages.internal(tool.name));
}
