import { CallbackManager, parseCallbackConfigArg, type Callbacks } from '@langchain/core/callbacks/manager';
import { ToolMessage, isAIMessage, type BaseMessage } from '@langchain/core/messages';
import { StructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { Tool as ToolDefinition, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ToolCallScheduler, type ToolCallSchedulerOptions, type ToolContainer } from '@toolwright/core';

/** What every call of these tools gets: the session's identity (`ctx.auth`) and the batch options. */
export type LangChainToolsOptions<TAuth = unknown> = ToolCallSchedulerOptions<TAuth>;

type JsonSchema = ToolDefinition['input_schema'];

/** The answer to a call a person would have to approve: LangChain has no way to ask. */
const NEEDS_APPROVAL = (name: string) => `Not executed: ${name} needs a person's approval, which this agent cannot ask for.`;

/**
 * The container's tools as LangChain tools (`StructuredTool`s with the manifest's JSON Schema as
 * their `schema`, so `bindTools` sends it as it is), for `ToolNode`, `createReactAgent`,
 * `createAgent` or a hand-written loop. The calls of one model step (one `AIMessage`: what
 * LangGraph's `ToolNode` hands each call as its state) go through one `ToolCallScheduler`.
 *
 * Approval: LangChain has no approval of its own, so a call that needs one is refused with
 * `status: 'error'` and never runs (as MCP does without a client that can ask).
 */
export function toLangChainTools<TAuth>(container: ToolContainer<TAuth>, options: LangChainToolsOptions<TAuth> = {}): ContainerTool[] {
  const scheduler = new ToolCallScheduler(container, options);
  const answer: Answer = async (call, step, signal) => {
    if (container.asksApproval) {
      const check = await container.checkApprovals([{ type: 'tool_use', ...call }], { auth: options.auth });
      if (check.answered.length > 0) return check.answered[0];
      if (check.pending.length > 0) return { type: 'tool_result', tool_use_id: call.id, content: NEEDS_APPROVAL(call.name), is_error: true };
    }
    return scheduler.run(call, { step, signal });
  };
  return container.definitions().map((definition) => new ContainerTool(definition, answer));
}

type Answer = (call: { id: string; name: string; input: unknown }, step: object | undefined, signal: AbortSignal | undefined) => Promise<ToolResultBlockParam>;

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
      const result = await this.answer({ id: id ?? `toolwright_${this.name}`, name: this.name, input }, stepOf(config.state), config.signal);
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

/** The model step a call belongs to: the last `AIMessage` of the graph state `ToolNode` passes along. */
function stepOf(state: unknown): object | undefined {
  const messages = Array.isArray(state) ? state : (state as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) if (isAIMessage(messages[i] as BaseMessage)) return messages[i] as object;
  return undefined;
}
