// The module's own binding: reading the global `performance` costs a lookup on every call.
import { performance } from 'node:perf_hooks';
import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { bindArguments } from '../validation/bind-arguments';
import { buildInput, prepareInput, type PreparedInput } from '../validation/validate-input';
import { answer, type RegisteredTool, type ToolCall } from './call.types';
import { answerFor, internalError, type InvokeEnv } from './invoke';
import { capText, shapeResult } from './result';
import { modelMessages } from './messages';
import { echo, isArray } from './echo';
import { enroll, withdraw, type Watched } from './after-microtasks';

type Answers = ToolResultBlockParam[];

/**
 * A tool compiled for the batch of one call without signal, listener or span, when nothing of
 * the call can see a `ToolContext` or a batch (no guard, no `@Ctx`) and class-validator has
 * nothing to judge: then a call is limits and schema check, the instance, the method, and its
 * result encoded within the caps, with no context, no race object and no batch around it. Its
 * answers are `invokeTool`'s, message for message: whatever it does not take (a returned array,
 * which may hold blocks) goes through the same `answerFor`. A timer is set only for a call still
 * pending once the microtasks queued with it have run, as `invokeTool` does.
 */
export class ToolPlan {
  /** False when the call needs a `ToolContext` or class-validator must judge the input. */
  private direct: boolean;
  /**
   * Made when the container is built, for every tool (the general path reads the same
   * preparation): a tool's first call then compiles nothing of its own, on a user's request. A
   * preparation that throws (an instance plan naming a shape it lacks) is tried again on each
   * call, which answers it as a failure of that call, as before.
   */
  private prepared: PreparedInput | undefined;
  /** The property of a method's one `@Param`: its argument, passed without an arguments list. */
  private readonly soleParam: string | undefined;

  constructor(
    readonly tool: RegisteredTool,
    readonly env: InvokeEnv,
  ) {
    this.prepared = prepareOrDefer(tool);
    this.direct = !env.needsContext && tool.options.guard === undefined && this.prepared?.needsValidator !== true;
    const [first] = tool.parameters;
    this.soleParam = tool.parameters.length === 1 && first.kind === 'param' ? first.property : undefined;
  }

  /** The answers of `execute` for `call` alone; `undefined` when it needs the general path. */
  executeAlone(call: ToolCall): Promise<Answers> | undefined {
    if (!this.direct) return undefined;
    const { tool, env } = this;
    let input: object;
    try {
      let prepared = this.prepared;
      if (!prepared) {
        prepared = this.prepared = prepareInput(tool);
        if (prepared.needsValidator) {
          this.direct = false;
          return undefined;
        }
      }
      const built = buildInput(call.input, tool, env.limits, prepared);
      if (!built.ok) return Promise.resolve([answer(call, 'invalid_input', capText(built.message, env.maxMessageChars)).result]);
      input = built.value;
    } catch (error) {
      return Promise.resolve([internalError(tool, call, env.logger, error, 'validation').result]);
    }
    // The deadline counts from the start, as `invokeTool`'s does.
    const deadline = performance.now() + env.timeoutMs;
    let value: unknown;
    try {
      const method = (tool.instance as Record<string, (...args: unknown[]) => unknown>)[tool.method];
      const sole = this.soleParam;
      value = sole === undefined ? method.apply(tool.instance, bindArguments(tool.parameters, input, undefined)) : method.call(tool.instance, (input as Record<string, unknown>)[sole]);
      if (!(value instanceof Promise)) {
        if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return Promise.resolve([this.returned(call, value)]);
        // Read once, as promise resolution would read it: a getter that throws fails this call alone.
        const then = (value as { then?: unknown }).then;
        if (typeof then !== 'function') return Promise.resolve([this.returned(call, value)]);
        value = Promise.resolve(value);
      }
    } catch (error) {
      return Promise.resolve([this.threw(call, error)]);
    }
    const answers = new Promise<Answers>(captureResolve);
    new PendingCall(this, call, deadline, value as Promise<unknown>, captured!);
    return answers;
  }

  /** What the model reads for a returned value; an array (which may hold blocks) as `invokeTool` answers it. */
  returned(call: ToolCall, value: unknown): ToolResultBlockParam {
    const { tool, env } = this;
    try {
      if (isArray(value)) return answerFor(tool, call, env, { kind: 'returned', value }).result;
      const content = shapeResult(value, env.result, env.json);
      return content === undefined ? { type: 'tool_result', tool_use_id: call.id } : { type: 'tool_result', tool_use_id: call.id, content };
    } catch (error) {
      return internalError(tool, call, env.logger, error, 'result').result;
    }
  }

  threw(call: ToolCall, error: unknown): ToolResultBlockParam {
    return answerFor(this.tool, call, this.env, { kind: 'threw', error }).result;
  }

  timedOut(call: ToolCall): ToolResultBlockParam {
    return answer(call, 'timeout', modelMessages.timedOut(this.env.timeoutMs, this.tool.effect === 'write')).result;
  }
}

function prepareOrDefer(tool: RegisteredTool): PreparedInput | undefined {
  try {
    return prepareInput(tool);
  } catch {
    return undefined;
  }
}

// One executor for every pending call's promise, instead of a closure per call: it hands out the
// promise's resolve, which the constructor of the `PendingCall` after it takes.
let captured: ((answers: Answers) => void) | undefined;
const captureResolve = (resolve: (answers: Answers) => void): void => {
  captured = resolve;
};

/** A direct call whose method returned a promise: the first of the promise and its deadline answers. */
class PendingCall implements Watched {
  watchSlot = -1;
  private answered = false;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(
    private readonly plan: ToolPlan,
    private readonly call: ToolCall,
    private readonly deadline: number,
    work: Promise<unknown>,
    private readonly resolve: (answers: Answers) => void,
  ) {
    try {
      work.then(
        (value) => {
          if (!this.answered) this.finish(plan.returned(call, value));
        },
        (error: unknown) => {
          if (this.answered) plan.env.logger.warn(`toolwright: ${plan.tool.name} (${echo(call.id)}) failed after it was abandoned:`, error);
          else this.finish(plan.threw(call, error));
        },
      );
    } catch (error) {
      // A Promise subclass whose `then` throws: `invokeTool` answers it as a failure of the call's validation step.
      this.finish(internalError(plan.tool, call, plan.env.logger, error, 'validation').result);
      return;
    }
    if (!this.answered) enroll(this);
  }

  watch(): void {
    if (this.answered) return;
    this.timer = setTimeout(() => this.finish(this.plan.timedOut(this.call)), Math.max(0, this.deadline - performance.now()));
  }

  private finish(result: ToolResultBlockParam): void {
    if (this.answered) return;
    this.answered = true;
    withdraw(this);
    if (this.timer) clearTimeout(this.timer);
    this.resolve([result]);
  }
}
