import type {
  Tool,
  ToolResultBlockParam,
  ToolSearchToolBm25_20251119,
  ToolSearchToolRegex20251119,
} from '@anthropic-ai/sdk/resources/messages';
import { consoleLogger, type ToolClient, type ToolLogger } from './context';
import { bindManifest, checkManifestShape } from './manifest/check-manifest';
import type { ToolManifest } from './manifest/manifest.types';
import { checkPositiveInteger } from './execution/check-options';
import { invokeEnv, invokeTool, type CallScope } from './execution/invoke';
import { ToolPlan } from './execution/tool-plan';
import { warmUpGeneralPath } from './execution/warm-up';
import { runSchedule, type ScheduledCall, type WriteFailurePolicy } from './execution/schedule';
import { modelMessages } from './execution/messages';
import { BatchCancellation } from './execution/cancellation';
import { answer, type CallResult, type RegisteredTool, type SkipReason, type ToolCall, type ToolEvent, type TraceCarrier } from './execution/call.types';
import { capText, type ResultLimits } from './execution/result';
import { safeLogger } from './execution/safe-logger';
import { duplicateId, readLoneCall, readToolCalls } from './execution/tool-calls';
import { echo } from './execution/echo';
import { DEFAULT_INPUT_LIMITS, type InputLimits } from './validation/plain-input';
import { runnableTools, type RunnableToolsOptions } from './interop/runnable-tools';
import type { AssistantContentBlock, BatchExecutor, ExecuteOptions } from './execution/batch-executor';
import { callTracing, type CallTracing, type TelemetryOptions } from './interop/opentelemetry';
import type { ToolEffect } from './decorators/tool-options';
import type { ApprovalPolicy } from './approval/approval-policy';
import { checkApprovals, mayAskApproval, type ApprovalCheck } from './approval/approval-check';

export interface ExecutionDefaults {
  /** Per-call limit when `@Tool` sets none. Default 30,000 ms. */
  timeoutMs: number;
  /**
   * The cap on the text of one result, whatever produced it: a returned value, a `ToolError`,
   * a validation or protocol message. Longer text is cut with a visible marker. Default 20,000.
   */
  maxResultChars: number;
  /** Image and document blocks kept in one result; the rest are replaced by a line. Default 20. */
  maxMediaBlocks: number;
  /** Characters of image and document blocks (base64 included) in one result. Default 20,000,000. */
  maxMediaChars: number;
  /** Reads of one segment running at once. Default 8. */
  maxConcurrency: number;
  /** Default `'halt'`: a failed write stops the rest of its batch. */
  onWriteFailure: WriteFailurePolicy;
}

/** The reason a batch's leftovers see once `execute` has answered; one object, not one per batch. */
const EXECUTE_RETURNED = new Error('execute returned');

const NO_OPTIONS: ExecuteOptions<never> = Object.freeze({});

const DEFAULTS: ExecutionDefaults = {
  timeoutMs: 30_000,
  maxResultChars: 20_000,
  maxMediaBlocks: 20,
  maxMediaChars: 20_000_000,
  maxConcurrency: 8,
  onWriteFailure: 'halt',
};

export interface ToolContainerOptions {
  /** The `toolManifest` exported by the module `tools-codegen` wrote. */
  manifest: ToolManifest;
  /** Instances of the classes with `@Tool` methods. */
  providers: readonly object[];
  /** Receives unexpected exceptions with their stack; stderr by default. */
  logger?: ToolLogger;
  defaults?: Partial<ExecutionDefaults>;
  /** Bounds on every input, checked before any parsing work; each refusal is a one-line `is_error`. */
  limits?: Partial<InputLimits>;
  onEvent?: (event: ToolEvent) => void;
  /** `execute_tool` spans when `@opentelemetry/api` is installed; `false` turns them off. */
  telemetry?: TelemetryOptions | false;
  /**
   * Which calls wait for a person when a tool's `@Tool({ approval })` says nothing: `'none'`
   * (default) or `'writes'`. Only the loops with a `store` pause for approval.
   */
  approval?: ApprovalPolicy;
  /**
   * Adds Anthropic's tool search tool to what the loops send, so tools with
   * `@Tool({ deferLoading: true })` load only when a search finds them: `'regex'`
   * (`tool_search_tool_regex`) or `'bm25'` (`tool_search_tool_bm25`, natural-language queries).
   */
  toolSearch?: ToolSearchKind;
}

export type ToolSearchKind = 'regex' | 'bm25';

/**
 * A call started by `startCall`: its answer, and how to cancel it. No `AbortSignal` is made
 * for it (creating one costs microseconds, and an MCP request's call is rarely cancelled).
 */
export interface StartedCall {
  /** Never rejects, like `executeCall`'s. */
  readonly answer: Promise<CallResult>;
  /** Cancels the call: it does not start, or its `ctx.signal` aborts with `reason`. */
  cancel(reason?: unknown): void;
}

/** Options of `executeCall`: one call, outside any batch. */
export interface CallOptions<TAuth = unknown> {
  auth?: TAuth;
  /** Aborting it cancels the call: it does not start, or its `ctx.signal` aborts. */
  signal?: AbortSignal;
  onEvent?: (event: ToolEvent) => void;
  /** What the caller's client can do for the tool (progress, log messages, elicitation): `ctx.progress`, `ctx.log`, `ctx.elicit`. */
  client?: ToolClient;
  /**
   * The caller's W3C Trace Context (an MCP request's `_meta.traceparent` / `tracestate`): the
   * call's `execute_tool` span continues that trace, read through OpenTelemetry's registered propagator.
   */
  traceContext?: TraceCarrier;
}

/**
 * A tool as other surfaces than the Messages API present it (MCP): the definition plus the
 * declared effect and the `@Tool` hints about it.
 */
export interface ToolDescription {
  name: string;
  definition: Tool;
  effect: ToolEffect;
  title?: string;
  idempotent?: boolean;
  destructive?: boolean;
  openWorld?: boolean;
  /** JSON Schema of the method's object-typed return value, from the manifest. */
  outputSchema?: Record<string, unknown>;
}

/** The user message that answers an assistant turn's tool calls. */
export interface ToolReply {
  role: 'user';
  content: ToolResultBlockParam[];
}

/**
 * Holds the tools of an application: their definitions for `messages.create`, and `execute`,
 * which answers every `tool_use` block with a `tool_result` and never rejects for anything a
 * model or a tool does.
 */
export class ToolContainer<TAuth = unknown> implements BatchExecutor<TAuth> {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly defaults: ExecutionDefaults;
  private readonly limits: InputLimits;
  /** Per tool name, compiled once: `execute` is on the hot path of every turn. */
  private readonly plans = new Map<string, ToolPlan>();
  private readonly logger: ToolLogger;
  private readonly onEvent?: (event: ToolEvent) => void;
  private readonly approvalPolicy: ApprovalPolicy;
  private readonly traced: CallTracing;
  private readonly toolSearch?: ToolSearchKind;

  constructor(options: ToolContainerOptions) {
    const policy = options.approval ?? 'none';
    if (policy !== 'none' && policy !== 'writes') throw new RangeError(`ToolContainer: approval must be 'none' or 'writes', got ${String(policy)}.`);
    this.approvalPolicy = policy;
    if (options.toolSearch !== undefined && options.toolSearch !== 'regex' && options.toolSearch !== 'bm25') {
      throw new RangeError(`ToolContainer: toolSearch must be 'regex' or 'bm25', got ${JSON.stringify(options.toolSearch)}.`);
    }
    this.toolSearch = options.toolSearch;
    this.logger = safeLogger(options.logger ?? consoleLogger);
    this.defaults = checkDefaults({ ...DEFAULTS, ...options.defaults });
    this.limits = checkLimits({ ...DEFAULT_INPUT_LIMITS, ...options.limits });
    this.onEvent = options.onEvent;
    this.traced = callTracing(options.telemetry);
    checkManifestShape(options.manifest, 'ToolContainer');
    for (const { entry, instance, decorated } of bindManifest(options.manifest, options.providers)) {
      this.tools.set(entry.definition.name, {
        name: entry.definition.name,
        effect: entry.effect,
        definition: entry.definition,
        inputClass: entry.inputClass,
        parameters: entry.parameters,
        inputSchema: entry.inputSchema,
        inputCheck: entry.inputCheck,
        instancePlan: entry.instancePlan,
        instance,
        method: entry.method,
        options: decorated.options,
        outputSchema: entry.outputSchema,
      });
    }
    for (const tool of this.tools.values()) {
      const result: ResultLimits = {
        maxChars: tool.options.maxResultChars ?? this.defaults.maxResultChars,
        maxMediaBlocks: this.defaults.maxMediaBlocks,
        maxMediaChars: this.defaults.maxMediaChars,
      };
      this.plans.set(tool.name, new ToolPlan(tool, invokeEnv(tool, {
        logger: this.logger,
        timeoutMs: tool.options.timeoutMs ?? this.defaults.timeoutMs,
        limits: this.limits,
        result,
        maxMessageChars: this.defaults.maxResultChars,
      })));
    }
    // A tool with a guard or `@Ctx` takes the general path: compiled here rather than on its first
    // call (see `warmUpGeneralPath`); the container's own part of it through a call of no tool,
    // unless a span would record that call.
    if ([...this.plans.values()].some((plan) => plan.env.needsContext) && warmUpGeneralPath(this.limits) && !this.traced.live()) {
      void this.executeOne({ id: 'toolu_warm_up', name: '', input: {}, mayWrite: true }, undefined);
    }
  }

  /** The tool names, in manifest order. */
  get names(): string[] {
    return [...this.tools.keys()];
  }

  /** The declared effect of the tool `name`; `undefined` for an unknown tool, which `execute` schedules as a write. */
  effectOf(name: string): ToolEffect | undefined {
    return this.toolNamed(name)?.effect;
  }

  /** How `execute` schedules a batch when its options say nothing: the loops start reads one by one with the same bound. */
  get scheduling(): Readonly<Pick<ExecutionDefaults, 'maxConcurrency' | 'onWriteFailure'>> {
    return { maxConcurrency: this.defaults.maxConcurrency, onWriteFailure: this.defaults.onWriteFailure };
  }

  /** Whether any call could wait for a person: the container's policy or a tool's `approval` option. */
  get asksApproval(): boolean {
    return mayAskApproval(this.approvalPolicy, this.tools.values());
  }

  /**
   * The calls of `content` that must wait for a person's decision, decided after validation and
   * guard (a call refused anyway is not asked about). Runs no tool method.
   */
  async checkApprovals(content: readonly AssistantContentBlock[], options: Pick<ExecuteOptions<TAuth>, 'auth'> = {}): Promise<ApprovalCheck> {
    const blocks = content.flatMap((b): ToolCall[] => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, input: b.input }] : []));
    return checkApprovals(blocks, {
      policy: this.approvalPolicy,
      tool: (name) => this.tools.get(name),
      auth: options.auth,
      logger: this.logger,
      limits: this.limits,
      internalError: (call) => answer(call, 'internal_error', modelMessages.internal(call.name)).result,
    });
  }

  /** Definitions for `client.messages.create({ tools })`; a fresh copy on every call. */
  definitions(): Tool[] {
    return [...this.tools.values()].map((t) => structuredClone(t.definition));
  }

  /** The tool search tool the `toolSearch` option asks for, sent after `definitions()`; `undefined` without it. */
  searchTool(): ToolSearchToolRegex20251119 | ToolSearchToolBm25_20251119 | undefined {
    if (this.toolSearch === 'bm25') return { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
    if (this.toolSearch === 'regex') return { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' };
    return undefined;
  }

  /**
   * One `tool_result` per `tool_use` block of `content`, same ids, same order. Never rejects for
   * anything in `content` or anything a tool, a listener or the logger does; only options that
   * are not valid reject, with a `RangeError`.
   */
  execute(content: readonly AssistantContentBlock[], options: ExecuteOptions<TAuth> = NO_OPTIONS): Promise<ToolResultBlockParam[]> {
    let calls: ScheduledCall[] | undefined;
    try {
      if (options.signal === undefined && options.maxConcurrency === undefined && options.onWriteFailure === undefined && !this.onEvent && !options.onEvent) {
        const lone = readLoneCall(content);
        if (lone) {
          const plan = typeof lone.name === 'string' ? this.plans.get(lone.name) : undefined;
          return this.executeAlone(lone, plan) ?? this.executeOne({ ...lone, mayWrite: plan?.tool.effect !== 'read' }, options.auth);
        }
        calls = this.scheduledCalls(content);
        if (calls.length === 1) return this.executeOne(calls[0], options.auth);
      }
    } catch {
      // Options that throw when read take the general path, which answers for them.
    }
    return this.executeBatch(content, options, calls);
  }

  /** A lone call of a tool compiled for it (see `ToolPlan`), when no span could be made around it. */
  private executeAlone(call: ToolCall, plan: ToolPlan | undefined): Promise<ToolResultBlockParam[]> | undefined {
    if (plan === undefined || typeof call.id !== 'string' || this.traced.live()) return undefined;
    return plan.executeAlone(call);
  }

  /**
   * A batch of one call, no signal, no listener: what most turns are. As `executeBatch` answers
   * it, with one promise layer instead of an async frame around the call's own.
   */
  private executeOne(call: ScheduledCall, auth: TAuth | undefined): Promise<ToolResultBlockParam[]> {
    const cancellation = new BatchCancellation();
    const answered = (result: CallResult): ToolResultBlockParam[] => {
      // Whatever of this call is still pending (an abandoned guard) must not start once its answer is out.
      cancellation.cancel(EXECUTE_RETURNED);
      return [result.result];
    };
    try {
      const only = this.call(call, { auth, cancellation }, undefined);
      if (!(only instanceof Promise)) return Promise.resolve(answered(only));
      return only.then(answered, (error: unknown) => this.executeFailed(call, cancellation, error));
    } catch (error) {
      return Promise.resolve(this.executeFailed(call, cancellation, error));
    }
  }

  private executeFailed(call: ScheduledCall, cancellation: BatchCancellation, error: unknown): ToolResultBlockParam[] {
    this.logger.error('toolwright: execute failed unexpectedly; answering the calls without a result as internal errors:', error);
    cancellation.cancel(EXECUTE_RETURNED);
    return [answer(call, 'internal_error', modelMessages.internal(call.name)).result];
  }

  /** `read`: the content's calls when the fast path already read them, so a block is read once. */
  private async executeBatch(content: readonly AssistantContentBlock[], options: ExecuteOptions<TAuth>, read?: ScheduledCall[]): Promise<ToolResultBlockParam[]> {
    const maxConcurrency = options.maxConcurrency ?? this.defaults.maxConcurrency;
    const onWriteFailure = options.onWriteFailure ?? this.defaults.onWriteFailure;
    // The defaults were checked once, by the constructor.
    if (options.maxConcurrency !== undefined || options.onWriteFailure !== undefined) {
      checkExecutionOptions({ maxConcurrency, onWriteFailure }, 'ToolContainer.execute: options');
    }
    const calls = read ?? this.scheduledCalls(content);
    const emit = this.onEvent || options.onEvent ? (event: ToolEvent) => this.emit(event, options.onEvent) : undefined;
    const duplicate = duplicateId(calls);
    if (duplicate) return this.refuseDuplicateIds(calls, modelMessages.duplicateId(duplicate.id, duplicate.times), emit);
    const cancellation = new BatchCancellation();
    const unfollow = cancellation.follow(options.signal);
    const scope: CallScope = { auth: options.auth, cancellation };
    const results: CallResult[] = new Array(calls.length);
    try {
      // One call has nothing to schedule: it runs unless the batch is already cancelled. A call
      // answered without a promise (a method that returned a value) is not awaited.
      if (calls.length === 1) {
        const only = this.callUnlessCancelled(calls[0], scope, emit);
        results[0] = only instanceof Promise ? await only : only;
      } else await runSchedule(
        calls,
        {
          maxConcurrency,
          onWriteFailure,
          signal: cancellation,
          run: (call) => this.call(call, scope, emit),
          skip: (call, reason, cause) => this.skip(call, reason, cause, emit),
        },
        results,
      );
    } catch (error) {
      this.logger.error('toolwright: execute failed unexpectedly; answering the calls without a result as internal errors:', error);
    } finally {
      // Whatever of this batch is still pending must not start once its answers are out.
      cancellation.cancel(EXECUTE_RETURNED);
      unfollow();
    }
    const answers = new Array<ToolResultBlockParam>(calls.length);
    for (let i = 0; i < calls.length; i++) answers[i] = (results[i] ?? answer(calls[i], 'internal_error', modelMessages.internal(calls[i].name))).result;
    return answers;
  }

  /** Every tool with its effect and hints, in manifest order; fresh copies on every call. */
  describe(): ToolDescription[] {
    return [...this.tools.values()].map((t) => {
      const { title, idempotent, destructive, openWorld } = t.options;
      return structuredClone({ name: t.name, definition: t.definition, effect: t.effect, title, idempotent, destructive, openWorld, outputSchema: t.outputSchema });
    });
  }

  /**
   * Answers one call on its own, as `execute` answers a batch of one: the same validation, guard,
   * timeout, result cap, events and messages. For surfaces that order calls themselves (MCP
   * requests arriving over time). Never rejects.
   */
  async executeCall(call: ToolCall, options: CallOptions<TAuth> = {}): Promise<CallResult> {
    const cancellation = new BatchCancellation();
    const unfollow = cancellation.follow(options.signal);
    try {
      return await this.answerAlone(call, options, cancellation);
    } finally {
      unfollow();
    }
  }

  /**
   * `executeCall` cancelled by a function instead of a signal: for a surface that answers many
   * requests and cancels few (MCP), so that no call pays for an `AbortSignal`.
   */
  startCall(call: ToolCall, options: Omit<CallOptions<TAuth>, 'signal'> = {}): StartedCall {
    const cancellation = new BatchCancellation();
    return { answer: this.answerAlone(call, options, cancellation), cancel: (reason) => cancellation.cancel(reason) };
  }

  private async answerAlone(call: ToolCall, options: CallOptions<TAuth>, cancellation: BatchCancellation): Promise<CallResult> {
    const emit = this.onEvent || options.onEvent ? (event: ToolEvent) => this.emit(event, options.onEvent) : undefined;
    const scheduled: ScheduledCall = { id: call.id, name: call.name, input: call.input, mayWrite: this.mayWrite(call.name), client: options.client, traceContext: options.traceContext };
    try {
      return await this.callUnlessCancelled(scheduled, { auth: options.auth, cancellation }, emit);
    } catch (error) {
      this.logger.error('toolwright: executeCall failed unexpectedly; answering it as an internal error:', error);
      return answer(call, 'internal_error', modelMessages.internal(call.name));
    }
  }

  /** `execute`, wrapped as the user message that must follow the assistant turn. */
  async reply(content: readonly AssistantContentBlock[], options: ExecuteOptions<TAuth> = {}): Promise<ToolReply> {
    return { role: 'user', content: await this.execute(content, options) };
  }

  /** The tools for the SDK's `client.beta.messages.toolRunner`, answering through `execute`. */
  asRunnableTools(options: RunnableToolsOptions<TAuth> = {}) {
    return runnableTools(this, options);
  }

  /**
   * Answering one id twice is a 400 from the API, and running the calls would repeat writes the
   * model cannot tell apart: the whole message is refused before anything runs.
   */
  private refuseDuplicateIds(calls: readonly ScheduledCall[], why: string, emit?: (e: ToolEvent) => void): ToolResultBlockParam[] {
    const message = capText(why, this.defaults.maxResultChars);
    return calls.map((call) => {
      this.announceSkip(call, 'duplicate_id', emit);
      return answer(call, 'not_executed', message).result;
    });
  }

  /** The `tool_use` blocks of `content`; unknown tools may write, since nobody knows their effect. */
  private scheduledCalls(content: readonly AssistantContentBlock[]): ScheduledCall[] {
    return readToolCalls(content, this.mayWrite);
  }

  private readonly mayWrite = (name: unknown): boolean => this.toolNamed(name)?.effect !== 'read';

  private toolFor(call: ToolCall): RegisteredTool | undefined {
    return this.toolNamed(call.name);
  }

  private toolNamed(name: unknown): RegisteredTool | undefined {
    return typeof name === 'string' ? this.tools.get(name) : undefined;
  }

  /** The call's answer: without a promise when it has one at once (no listener, no live span, a method that returned a value). */
  private call(call: ScheduledCall, scope: CallScope, emit?: (e: ToolEvent) => void): CallResult | Promise<CallResult> {
    const tool = this.toolFor(call);
    if (!emit && !this.traced.live()) return this.answerCall(call, tool, scope);
    const effect = tool?.effect ?? 'unknown';
    const started = emit ? Date.now() : 0;
    emit?.({ type: 'call_start', tool: label(call.name), toolUseId: label(call.id), effect, at: started });
    const answered = this.traced.live()
      ? this.traced({ name: label(call.name), id: label(call.id), input: call.input, description: tool?.definition.description, parent: call.traceContext }, async () =>
          this.answerCall(call, tool, scope),
        )
      : Promise.resolve(this.answerCall(call, tool, scope));
    if (!emit) return answered;
    return answered.then((result) => {
      const ended = Date.now();
      emit({ type: 'call_end', tool: label(call.name), toolUseId: label(call.id), effect, at: ended, durationMs: ended - started, outcome: result.outcome });
      return result;
    });
  }

  /** A call on its own, as the scheduler would run it: skipped when its batch is already cancelled. */
  private callUnlessCancelled(call: ScheduledCall, scope: CallScope, emit?: (e: ToolEvent) => void): CallResult | Promise<CallResult> {
    return scope.cancellation.aborted ? this.skip(call, 'cancelled', undefined, emit) : this.call(call, scope, emit);
  }

  private answerCall(call: ScheduledCall, tool: RegisteredTool | undefined, scope: CallScope): CallResult | Promise<CallResult> {
    if (typeof call.id !== 'string') return answer(call, 'invalid_input', modelMessages.invalidId(call.id));
    if (!tool) return answer(call, 'unknown_tool', capText(modelMessages.unknownTool(call.name, this.names), this.defaults.maxResultChars));
    return invokeTool(tool, call, this.plans.get(tool.name)!.env, call.client ? { ...scope, client: call.client } : scope);
  }

  private skip(call: ScheduledCall, reason: 'halted' | 'cancelled', cause: ToolCall | undefined, emit?: (e: ToolEvent) => void): CallResult {
    const effect = this.announceSkip(call, reason, emit);
    return reason === 'halted' && cause
      ? answer(call, 'not_executed', modelMessages.notExecuted(cause.name, cause.id))
      : answer(call, 'cancelled', modelMessages.cancelled(false, effect === 'write'));
  }

  private announceSkip(call: ToolCall, reason: SkipReason, emit?: (e: ToolEvent) => void): ToolEvent['effect'] {
    const effect = this.toolFor(call)?.effect ?? 'unknown';
    emit?.({ type: 'call_skipped', tool: label(call.name), toolUseId: label(call.id), effect, at: Date.now(), reason });
    return effect;
  }

  private emit(event: ToolEvent, perCall?: (event: ToolEvent) => void): void {
    for (const listener of [this.onEvent, perCall]) {
      if (!listener) continue;
      try {
        listener(event);
      } catch (error) {
        this.logger.error(`toolwright: an onEvent listener threw on ${event.type}; results are unaffected:`, error);
      }
    }
  }
}

/** An id or name as events report it: as sent when it is a string, described when it is not. */
function label(value: unknown): string {
  return typeof value === 'string' ? value : echo(value);
}

function checkDefaults(defaults: ExecutionDefaults): ExecutionDefaults {
  checkPositiveInteger(`ToolContainer: defaults.timeoutMs`, defaults.timeoutMs);
  checkPositiveInteger(`ToolContainer: defaults.maxResultChars`, defaults.maxResultChars);
  checkPositiveInteger(`ToolContainer: defaults.maxMediaBlocks`, defaults.maxMediaBlocks);
  checkPositiveInteger(`ToolContainer: defaults.maxMediaChars`, defaults.maxMediaChars);
  checkExecutionOptions(defaults, 'ToolContainer: defaults');
  return defaults;
}

function checkLimits(limits: InputLimits): InputLimits {
  for (const key of Object.keys(DEFAULT_INPUT_LIMITS) as Array<keyof InputLimits>) checkPositiveInteger(`ToolContainer: limits.${key}`, limits[key]);
  return limits;
}

/** Options a caller sets per batch are checked like the defaults: a typo must not change the schedule. */
function checkExecutionOptions(options: Pick<ExecutionDefaults, 'maxConcurrency' | 'onWriteFailure'>, where: string): void {
  checkPositiveInteger(`${where}.maxConcurrency`, options.maxConcurrency);
  if (options.onWriteFailure !== 'halt' && options.onWriteFailure !== 'continue') {
    throw new RangeError(`${where}.onWriteFailure must be 'halt' or 'continue', got ${String(options.onWriteFailure)}.`);
  }
}
