import { UserError, tool, type FunctionTool, type RunContext } from '@openai/agents';
import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ToolCallScheduler, type ToolCallSchedulerOptions, type ToolContainer } from '@toolwright/core';
import { TurnSteps } from './turn-steps';

/** What every call of these tools gets: the session's identity (`ctx.auth`) and the batch options. */
export type OpenAiAgentsToolsOptions<TAuth = unknown> = ToolCallSchedulerOptions<TAuth>;

type ContainerOutput = Exclude<ToolResultBlockParam['content'], undefined>;

/** A result the container answered with `is_error`; the tool's `errorFunction` sends its message. */
class ToolCallFailed extends Error {
  override readonly name = 'ToolCallFailed';
}

/**
 * The container's tools as OpenAI Agents SDK function tools, built with `tool({ parameters })`
 * from the manifest's JSON Schema. The SDK parses the arguments (and, in strict mode, turns the
 * nulls it asked for back into absent fields); the container validates them, with its messages.
 * The calls of one turn go through one `ToolCallScheduler`, as one step (see `TurnSteps`): a
 * failed write halts the turn's later calls also when `maxFunctionToolConcurrency` makes the
 * runner start them a few at a time.
 *
 * Strict mode (the SDK's default, which OpenAI's structured outputs need): the SDK makes every
 * optional property required and nullable and maps `null` back to absent before the call; a
 * schema it cannot convert without loss (an `anyOf` branch with an optional property) is sent
 * non-strict instead. Approval: `needsApproval`, decided after validation and guard; the
 * run stops with `interruptions` until `state.approve()` / `state.reject()`.
 */
export function toOpenAiAgentsTools<TAuth>(container: ToolContainer<TAuth>, options: OpenAiAgentsToolsOptions<TAuth> = {}): FunctionTool[] {
  const scheduler = new ToolCallScheduler(container, options);
  const turns = new TurnSteps();
  const asks = container.asksApproval;
  return container.definitions().map((definition) => {
    const name = definition.name;
    const make = (strict: boolean) =>
      tool({
        name,
        description: definition.description ?? '',
        // The SDK's types want the schema's shape at compile time; the manifest's is known at run time.
        parameters: definition.input_schema as never,
        strict,
        ...(asks
          ? {
              needsApproval: async (_context: unknown, input: unknown, callId?: string) => {
                const check = await container.checkApprovals([{ type: 'tool_use', id: callId ?? `toolwright_${name}`, name, input }], { auth: options.auth });
                return check.pending.length > 0;
              },
            }
          : {}),
        execute: async (input: unknown, context: RunContext<unknown> | undefined, details?: { toolCall?: { callId: string }; signal?: AbortSignal }) => {
          const id = details?.toolCall?.callId ?? `toolwright_${name}`;
          const result = await scheduler.run({ id, name, input }, { signal: details?.signal, step: turns.of(context) });
          const content = result.content ?? '';
          if (result.is_error) throw new ToolCallFailed(textOf(content));
          return textOf(content);
        },
        errorFunction: (_context: unknown, error: unknown) => (error instanceof ToolCallFailed ? error.message : 'An error occurred while running the tool. Please try again.'),
      }) as FunctionTool;
    try {
      return make(true);
    } catch (error) {
      // The SDK refuses a schema it cannot make strict without changing what it accepts.
      if (error instanceof UserError) return make(false);
      throw error;
    }
  });
}

/** Function-call outputs are text: text blocks as they are, other blocks as JSON. */
function textOf(content: ContainerOutput): string {
  return typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : JSON.stringify(b))).join('\n');
}
