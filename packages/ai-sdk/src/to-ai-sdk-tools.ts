import { jsonSchema, tool, type ModelMessage, type Tool, type ToolSet } from 'ai';
import { ToolCallScheduler, type ToolCallSchedulerOptions, type ToolContainer } from '@toolwright/core';
import { modelOutput, type ContainerOutput } from './model-output';
import { isOpenAiStrictSchema } from './strict-schema';
import { StepApprovals } from './step-approvals';

/** What every call of these tools gets: the session's identity (`ctx.auth`) and the batch options. */
export type AiSdkToolsOptions<TAuth = unknown> = ToolCallSchedulerOptions<TAuth>;

/**
 * A result the container answered with `is_error`. The AI SDK sends `String(error)` to the model
 * as the tool's error text, so that is the container's message, with no class name before it.
 */
class ToolCallFailed extends Error {
  override readonly name = 'ToolCallFailed';

  override toString(): string {
    return this.message;
  }
}

/**
 * The container's tools as an AI SDK `ToolSet` for `generateText` / `streamText`. Each schema is
 * the manifest's JSON Schema through `jsonSchema()` with no validator of its own, so the input
 * reaches the container untouched and is checked there, with the container's messages. The
 * calls of one step (the `messages` array the AI SDK hands to every call of that step) go through
 * one `ToolCallScheduler`: reads together, writes alone in the model's order, a failed write
 * halting the rest of the step, also when `toolCallConcurrency` makes the AI SDK start the
 * step's calls a few at a time.
 *
 * Approval: a call that needs it (after validation and guard) is an AI SDK approval request
 * (`needsApproval`), and so is every later call of its step, which must not run before the
 * decision. Resumed with the decisions, the approved calls run in order and a denied call halts
 * the later calls of its step as a failed write does, as in `resumeToolLoop`. Strict: a tool is sent with `strict: true` only when it is strict and OpenAI's strict
 * mode takes its schema as it is (no optional properties); otherwise without, and the container
 * still enforces the schema.
 */
export function toAiSdkTools<TAuth>(container: ToolContainer<TAuth>, options: AiSdkToolsOptions<TAuth> = {}): ToolSet {
  const scheduler = new ToolCallScheduler(container, options);
  const approvals = container.asksApproval ? new StepApprovals(container, options.auth) : undefined;
  const tools: ToolSet = {};
  for (const definition of container.definitions()) {
    const name = definition.name;
    const strict = definition.strict === true && isOpenAiStrictSchema(definition.input_schema);
    tools[name] = tool<unknown, ContainerOutput, Record<string, unknown>>({
      description: definition.description,
      inputSchema: jsonSchema<unknown>(definition.input_schema as Parameters<typeof jsonSchema>[0]),
      ...(strict ? { strict } : {}),
      ...(approvals ? { needsApproval: (input: unknown, { toolCallId, messages }: { toolCallId: string; messages: ModelMessage[] }) => approvals.needed({ id: toolCallId, name, input }, messages) } : {}),
      execute: async (input, { toolCallId, messages, abortSignal }) => {
        const refused = approvals?.refusal(toolCallId);
        const where = { signal: abortSignal, step: messages };
        // Resumed with decisions: a write that failed before the pause, and the denials before this call, halt it.
        if (!refused && approvals) {
          const failed = approvals.failedWriteBefore(toolCallId, messages);
          if (failed) scheduler.failedEarlier(failed, messages);
          for (const denied of approvals.denialsBefore(toolCallId, messages)) void scheduler.deny(denied.call, denied.reason, where);
        }
        const result = refused ?? (await scheduler.run({ id: toolCallId, name, input }, where));
        const content = result.content ?? '';
        if (result.is_error) throw new ToolCallFailed(textOf(content));
        return content;
      },
      toModelOutput: ({ output }) => modelOutput(output),
    }) as Tool;
  }
  return tools;
}

/** The error text of a result: the AI SDK's tool errors are text. */
function textOf(content: ContainerOutput): string {
  return typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
}
