import { validateInput } from '../validation/validate-input';
import { bindArguments } from '../validation/bind-arguments';
import type { InputLimits } from '../validation/plain-input';
import type { ElicitationAnswer, ElicitationRequest, ToolClient, ToolContext, ToolLogLevel, ToolLogger } from '../context';
import { isToolError } from './tool-error';
import { capText, mcpBlocksOf, shapeResult, shapeToolErrorContent, type ResultLimits } from './result';
import { modelMessages } from './messages';
import { echo } from './echo';
import { answer, type CallResult, type RegisteredTool, type ToolCall } from './call.types';
import type { InputCheck } from '../validation/validate-input';
import { LazyAbort, type BatchCancellation } from './cancellation';
import { enroll, withdraw, type Watched } from './after-microtasks';
import { JsonWriter } from './json-writer';

/** What a call of one tool needs from its container; the same for every call of that tool, made once. */
export interface InvokeEnv {
  /** Never throws (see `safeLogger`). */
  logger: ToolLogger;
  timeoutMs: number;
  limits: InputLimits;
  /** For what the tool produces: a returned value, a `ToolError`. */
  result: ResultLimits;
  /** For what toolwright writes (validation messages): the container's cap, not the tool's own. */
  maxMessageChars: number;
  /** Whether the method or its guard receives a `ToolContext`: without either, none is made. */
  needsContext: boolean;
  /** Writes this tool's returned values as JSON, knowing the shapes it returns. */
  json: JsonWriter;
}

/** What differs from call to call. */
export interface CallScope {
  auth: unknown;
  /** Cancelling the batch cancels this call. */
  cancellation: BatchCancellation;
  /** The caller's client, when it has one (MCP). */
  client?: ToolClient;
}

export type Settled =
  | { kind: 'returned'; value: unknown }
  | { kind: 'refused' }
  | { kind: 'threw'; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'cancelled' };

/** The static part of a call of `tool`, for `invokeTool`. */
export function invokeEnv(tool: RegisteredTool, env: Omit<InvokeEnv, 'needsContext' | 'json'>): InvokeEnv {
  return { ...env, needsContext: tool.options.guard !== undefined || tool.parameters.some((p) => p.kind === 'ctx'), json: new JsonWriter() };
}

/**
 * One call: validate → guard → method, bounded by its timeout and the batch's signal. Settles
 * with this call's answer whatever its code throws or returns, and never rejects, so one call's
 * failure cannot reach the answers of the others. Synchronous as far as the call is: a method
 * that returns a value is answered without a promise, one that returns a promise costs one.
 */
export function invokeTool(tool: RegisteredTool, call: ToolCall, env: InvokeEnv, scope: CallScope): CallResult | Promise<CallResult> {
  try {
    // User code runs during validation too (a @Transform, a custom constraint): when it throws,
    // this call fails alone.
    const verdict = validateInput(call.input, tool, env.limits);
    if (!(verdict instanceof Promise)) return afterValidation(tool, call, env, scope, verdict);
    const failed = (error: unknown) => internalError(tool, call, env.logger, error, 'validation');
    return verdict.then((checked) => {
      try {
        return afterValidation(tool, call, env, scope, checked);
      } catch (error) {
        return failed(error);
      }
    }, failed);
  } catch (error) {
    return internalError(tool, call, env.logger, error, 'validation');
  }
}

function afterValidation(tool: RegisteredTool, call: ToolCall, env: InvokeEnv, scope: CallScope, checked: InputCheck): CallResult | Promise<CallResult> {
  if (!checked.ok) return answer(call, 'invalid_input', capText(checked.message, env.maxMessageChars));
  if (scope.cancellation.aborted) return answer(call, 'cancelled', modelMessages.cancelled(false, tool.effect === 'write'));
  return runBounded(tool, call, env, scope, checked.value);
}

/** Guard and method with the call's `ToolContext`, within its timeout and the batch's signal. */
function runBounded(tool: RegisteredTool, call: ToolCall, env: InvokeEnv, scope: CallScope, input: object): CallResult | Promise<CallResult> {
  const race = new CallRace(env, scope, performance.now() + env.timeoutMs, tool, call);
  const ctx = env.needsContext ? new CallContext(call.id, tool.name, scope.auth, env.logger, race, scope.client) : undefined;
  let work: Work;
  try {
    work = tool.options.guard ? guarded(tool, ctx!, race, env, scope, input) : callMethod(tool, ctx, input);
  } catch (error) {
    work = { kind: 'threw', error };
  }
  return race.settle(work);
}

/**
 * What the model reads. Everything the tool handed over is inspected here, where a value whose
 * inspection throws (a Proxy, a throwing getter) becomes this call's internal error.
 */
export function answerFor(tool: RegisteredTool, call: ToolCall, env: InvokeEnv, settled: Settled): CallResult {
  try {
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
        const ok = answer(call, 'ok', shapeResult(settled.value, env.result, env.json));
        ok.value = settled.value;
        const blocks = mcpBlocksOf(settled.value, env.result);
        if (blocks) ok.blocks = blocks;
        return ok;
      }
    }
  } catch (error) {
    return internalError(tool, call, env.logger, error, 'result');
  }
}

/** What the method handed back: a value, or a promise of one. */
type MethodOutcome = Settled | { kind: 'returning'; value: Promise<unknown> };
/** A guarded call is a promise of its outcome from the start. */
type Work = MethodOutcome | Promise<Settled>;

/** The method, synchronous when it returns anything but a promise or a thenable, which is awaited (adopted). */
function callMethod(tool: RegisteredTool, ctx: ToolContext<unknown> | undefined, input: object): MethodOutcome {
  const method = (tool.instance as Record<string, (...args: unknown[]) => unknown>)[tool.method];
  const value = method.apply(tool.instance, bindArguments(tool.parameters, input, ctx));
  if (value instanceof Promise) return { kind: 'returning', value };
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return returned(value);
  // Read once, as promise resolution would read it: a getter that throws fails this call alone.
  const then = (value as { then?: unknown }).then;
  if (typeof then !== 'function') return returned(value);
  return { kind: 'returning', value: Promise.resolve(value) };
}

async function guarded(tool: RegisteredTool, ctx: ToolContext<unknown>, race: CallRace, env: InvokeEnv, scope: CallScope, input: object): Promise<Settled> {
  if (!(await tool.options.guard!.call(tool.instance, ctx, input))) return { kind: 'refused' };
  // The call may have been abandoned (timed out, cancelled) while its guard was pending: its
  // answer is already given, and a method started now would run beside the calls after it.
  if (race.abandoned || scope.cancellation.aborted) return { kind: 'cancelled' };
  // A guard that blocked the event loop past the deadline kept the timer from firing: its
  // callback waits behind this continuation. The clock is read here, so the method never starts.
  if (performance.now() >= race.deadline) {
    race.abort(new Error(`timed out after ${env.timeoutMs} ms`));
    return { kind: 'timeout' };
  }
  const work = callMethod(tool, ctx, input);
  return work.kind === 'returning' ? work.value.then(returned) : work;
}

const returned = (value: unknown): Settled => ({ kind: 'returned', value });

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
 * The first of: the work settles, its deadline passes, its batch is cancelled; then the call's
 * answer. The timer and the batch listener are set only for work still pending once the
 * microtasks queued with it have run (the deadline counts from the start all the same), or as
 * soon as the tool reads its signal: most calls settle before either could fire, and a timer
 * costs more than the rest of the call. A tool that never settles cannot hold the batch; one
 * that fails after being abandoned is still logged. Cancellation that came while the work ran is
 * seen when it settles.
 */
class CallRace implements Watched {
  watchSlot = -1;
  private answered: CallResult | undefined = undefined;
  private resolve: ((answered: CallResult) => void) | undefined = undefined;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;
  private unfollow: (() => void) | undefined = undefined;
  /** Made when something aborts the call or the tool reads its signal: most calls need neither. */
  private lazyAbort: LazyAbort | undefined = undefined;

  constructor(
    private readonly env: InvokeEnv,
    private readonly scope: CallScope,
    readonly deadline: number,
    private readonly tool: RegisteredTool,
    private readonly call: ToolCall,
  ) {}

  /** Whether the call was given up on (timed out, cancelled) and its signal aborted. */
  get abandoned(): boolean {
    return this.lazyAbort?.aborted ?? false;
  }

  abort(reason: unknown): void {
    (this.lazyAbort ??= new LazyAbort()).abort(reason);
  }

  settle(work: Work): CallResult | Promise<CallResult> {
    if (!(work instanceof Promise) && work.kind !== 'returning') {
      this.finish(this.scope.cancellation.aborted ? this.cancelNow() : work);
      return this.answered!;
    }
    const fromMethod = !(work instanceof Promise);
    const pending: Promise<unknown> = fromMethod ? work.value : work;
    pending.then(
      (value) => this.finish(this.scope.cancellation.aborted ? this.cancelNow() : fromMethod ? returned(value) : (value as Settled)),
      (error: unknown) => {
        if (this.answered && !this.honoursCancel(error)) this.env.logger.warn(`toolwright: ${this.tool.name} (${echo(this.call.id)}) failed after it was abandoned:`, error);
        this.finish({ kind: 'threw', error });
      },
    );
    if (this.answered) return this.answered;
    enroll(this);
    return new Promise((resolve) => (this.resolve = resolve));
  }

  /** The call's signal; a tool that watches it sees the batch's cancellation the moment it happens. */
  signal(): AbortSignal {
    this.follow();
    return (this.lazyAbort ??= new LazyAbort()).signal;
  }

  /**
   * Whether `error` is the tool honouring a cancellation (a `fetch` with the signal rejects with
   * an `AbortError`; `throwIfAborted()` throws the reason) of a call already answered as
   * cancelled: no failure to log. After a timeout the warning stays: the tool ran past its limit.
   */
  private honoursCancel(error: unknown): boolean {
    const abort = this.lazyAbort;
    if (this.answered?.outcome !== 'cancelled' || !abort?.aborted) return false;
    if (error === abort.reason) return true;
    try {
      return (error as { name?: unknown } | null)?.name === 'AbortError';
    } catch {
      // A thrown value whose `name` cannot be read (a Proxy whose traps throw) is not an AbortError: logged.
      return false;
    }
  }

  /** From now on the batch's cancellation ends this call at once; now, if it already came. */
  follow(): void {
    if (this.answered || this.unfollow) return;
    if (this.scope.cancellation.aborted) return this.finish(this.cancelNow());
    this.unfollow = this.scope.cancellation.onCancel(() => this.finish(this.cancelNow()));
  }

  /** For work still pending once the microtasks have run: the batch's cancellation and the deadline. */
  watch(): void {
    this.follow();
    if (this.answered) return;
    this.timer = setTimeout(() => {
      this.abort(new Error(`timed out after ${this.env.timeoutMs} ms`));
      this.finish({ kind: 'timeout' });
    }, Math.max(0, this.deadline - performance.now()));
  }

  /** Work that ended while its batch was being cancelled answers as cancelled, as if it had been abandoned. */
  private cancelNow(): Settled {
    this.abort(this.scope.cancellation.reason);
    return { kind: 'cancelled' };
  }

  private finish(settled: Settled): void {
    if (this.answered) return;
    this.answered = answerFor(this.tool, this.call, this.env, settled);
    withdraw(this);
    if (this.timer) clearTimeout(this.timer);
    this.unfollow?.();
    this.resolve?.(this.answered);
  }
}

export function internalError(tool: RegisteredTool, call: ToolCall, logger: ToolLogger, error: unknown, step: 'validation' | 'method' | 'result'): CallResult {
  const where = step === 'result' ? ' (its result could not be sent)' : step === 'validation' ? ' during validation' : '';
  logger.error(`toolwright: tool ${tool.name} (${echo(call.id)}) failed${where}:`, error);
  return answer(call, 'internal_error', modelMessages.internal(tool.name));
}
