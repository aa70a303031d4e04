import { CallbackManager, parseCallbackConfigArg, type Callbacks } from '@langchain/core/callbacks/manager';
import { ToolMessage, isAIMessage, type BaseMessage } from '@langchain/core/messages';
import { StructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { Tool as ToolDefinition, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ToolCallScheduler, type ToolCall, type ToolCallSchedulerOptions, type ToolContainer } from '@toolwright/core';
import { GraphApprovals } from './graph-approvals';

/** What every call of these tools gets: the session's identity (`ctx.auth`) and the batch options. */
export type LangChainToolsOptions<TAuth = unknown> = ToolCallSchedulerOptions<TAuth>;

type JsonSchema = ToolDefinition['input_schema'];

/**
 * The container's tools as LangChain tools (`StructuredTool`s with the manifest's JSON Schema as
 * their `schema`, so `bindTools` sends it as it is), for `ToolNode`, `createReactAgent`,
 * `createAgent` or a hand-written loop. The calls of one model step (one `AIMessage`: what
 * LangGraph's `ToolNode` hands each call as its state) go through one `ToolCallScheduler`.
 *
 * Approval: LangGraph's `interrupt()`, resumed with `new Command({ resume: { approve, reason? } })`
 * (see `GraphApprovals`); nothing of the step runs before every approval in it is decided, a
 * denial is answered "Denied by the user" and halts the step's later calls as a failed write.
 * Outside a LangGraph graph with a checkpointer nobody can be asked: such a call is refused
 * with `status: 'error'` and never runs (as MCP does without a client that can ask).
 */
export function toLangChainTools<TAuth>(container: ToolContainer<TAuth>, options: LangChainToolsOptions<TAuth> = {}): ContainerTool[] {
  const scheduler = new ToolCallScheduler(container, options);
  const approvals = container.asksApproval ? new GraphApprovals(container, options.auth) : undefined;
  const answer: Answer = async (call, step, signal) => {
    const decision = approvals ? await approvals.decide(call, step?.calls ?? (() => [call]), step?.message, step?.run) : { kind: 'run' as const };
    if (decision.kind === 'answered') return decision.result;
    const where = { step: step?.message, signal };
    return decision.kind === 'deny' ? scheduler.deny(call, decision.reason, where) : scheduler.run(call, where);
  };
  return container.definitions().map((definition) => new ContainerTool(definition, answer));
}

/**
 * The step a call belongs to, as `ToolNode` shows it: its `AIMessage`, the calls of it still
 * unanswered, and the state object `ToolNode` hands every call of one run of the node.
 */
interface Step {
  message: object;
  /** Read only when approval may be asked: it goes over the whole conversation. */
  calls(): ToolCall[];
  run: object | undefined;
}

type Answer = (call: ToolCall, step: Step | undefined, signal: AbortSignal | undefined) => Promise<ToolResultBlockParam>;

/**
 * One container tool as a LangChain tool. `StructuredTool.call` would check the input against
 * `schema` itself and throw its own error before the container sees the call (so a refused write
 * would not halt the calls after it); this `call` keeps LangChain's callbacks and hands the
 * input to the container untouched. The answer is a `ToolMessage` with the container's text,
 * `status: 'error'` for an `is_error` result.
 */
export class ContainerTool extends StructuredTool<JsonSchema> {
  name: string;
  description: string;
  schema: JsonSchema;

  constructor(
    definition: ToolDefinition,
    private readonly answer: Answer,
  ) {
    super();
    this.name = definition.name;
    this.description = definition.description ?? '';
    this.schema = definition.input_schema;
  }

  override async call(arg: unknown, configArg?: Callbacks | ToolRunnableConfig, tags?: string[]): Promise<any> {
    const toolCall = isToolCall(arg) ? arg : undefined;
    const input = toolCall ? toolCall.args : arg;
    const config = parseCallbackConfigArg(configArg) as ToolRunnableConfig & { state?: unknown };
    const id = toolCall?.id ?? config.toolCall?.id;
    const callbacks = CallbackManager.configure(config.callbacks, this.callbacks, config.tags ?? tags, this.tags, config.metadata, this.metadata, { verbose: this.verbose });
    const run = await callbacks?.handleToolStart(this.toJSON(), JSON.stringify(input), config.runId, undefined, undefined, undefined, config.runName ?? this.name, id);
    try {
      const result = await this.answer({ id: id ?? `toolwright_${this.name}`, name: this.name, input }, stepOf(config), config.signal);
      const content = (result.content ?? '') as ToolMessage['content'];
      // Called without a tool call id (`tool.invoke(args)`), a tool answers with its content, as LangChain's do.
      const output = id === undefined ? content : new ToolMessage({ content, tool_call_id: id, name: this.name, status: result.is_error ? 'error' : 'success' });
      await run?.handleToolEnd(output);
      return output;
    } catch (error) {
      await run?.handleToolError(error);
      throw error;
    }
  }

  /** Never reached: `call` answers every call. */
  protected async _call(): Promise<never> {
    throw new Error('ContainerTool answers through call()');
  }
}

function isToolCall(value: unknown): value is { id?: string; args: unknown; type: 'tool_call' } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'tool_call';
}

/**
 * The model step a call belongs to: the last `AIMessage` of the graph state `ToolNode` passes
 * along, with the calls of it `ToolNode` runs (those no `ToolMessage` answers yet), in order.
 */
function stepOf(config: ToolRunnableConfig & { state?: unknown }): Step | undefined {
  const state = config.state;
  const messages = Array.isArray(state) ? state : (state as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as BaseMessage;
    if (!isAIMessage(message)) continue;
    const calls = () => {
      const answered = new Set(messages.flatMap((m: BaseMessage) => (ToolMessage.isInstance(m) ? [m.tool_call_id] : [])));
      return (message.tool_calls ?? []).filter((c) => c.id === undefined || !answered.has(c.id)).map((c) => ({ id: c.id ?? `toolwright_${c.name}`, name: c.name, input: c.args }));
    };
    return { message, calls, run: state as object };
  }
  return undefined;
}
