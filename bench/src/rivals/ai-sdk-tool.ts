// The Vercel AI SDK's `tool()` with a zod schema, called the way `generateText` calls it for one
// tool call (ai 7.0.173, whose zod peer range ^3.25.76 || ^4.1.8 takes bench's zod 4, with
// @ai-sdk/anthropic as the provider). The functions that do it (`doParseToolCall`,
// `executeToolCall`, `createToolModelOutput`) are not exported, so this calls what they call, in
// their order:
//   1. the provider hands the block's input over as text (`input: JSON.stringify(part.input)`;
//      every AI SDK tool call pays it, so this row does too), and `doParseToolCall` checks it
//      with `safeParseJSON({ text, schema: asSchema(inputSchema) })` (secure JSON parse, then
//      `safeValidateTypes`, then zod's parse);
//   2. a failed check becomes an `InvalidToolInputError`; `generateText` turns it into a
//      tool-error whose text is `getErrorMessage(error)`, sent back as an `error-text` result;
//   3. a valid call goes through `executeTool` (the async generator `executeToolCall` drains),
//      is shaped as a `tool-result` part, and `createToolModelOutput` makes its `json` output,
//      which the Anthropic provider sends as `JSON.stringify(output.value)`.
// The telemetry span and the start/end callbacks `executeToolCall` also runs are left out: with
// no telemetry and no callbacks they do nothing, so this row is a floor for the AI SDK.
import { InvalidToolInputError, tool } from 'ai';
import { asSchema, executeTool, getErrorMessage, safeParseJSON } from '@ai-sdk/provider-utils';
import { BUSCAR_PEDIDO_DESCRIPTION, type OrderLookupTools } from '../fixtures/order-lookup.tools';
import { TOOL_CALL_ID, type RivalPath } from './rival-path';
import { buscarPedidoZodInput } from '../fixtures/order-lookup.zod';

const AI_SDK_LABEL = 'AI SDK tool() + zod: safeParseJSON + executeTool (as generateText)';

const TOOL_NAME = 'buscar_pedido';

export function aiSdkToolPath(tools: OrderLookupTools): RivalPath {
  const buscarPedido = tool({
    description: BUSCAR_PEDIDO_DESCRIPTION,
    inputSchema: buscarPedidoZodInput(),
    execute: async ({ numero }) => tools.buscarPedido(numero),
  });

  return {
    label: AI_SDK_LABEL,
    call: async (input) => {
      const text = JSON.stringify(input);
      // Per call, as doParseToolCall does: asSchema wraps the zod schema anew each time.
      const parsed = await safeParseJSON({ text, schema: asSchema(buscarPedido.inputSchema) });
      if (!parsed.success) {
        const error = new InvalidToolInputError({ toolName: TOOL_NAME, toolInput: text, cause: parsed.error });
        return { type: 'tool_result', tool_use_id: TOOL_CALL_ID, content: getErrorMessage(error), is_error: true };
      }
      let output: unknown;
      const stream = executeTool({
        tool: buscarPedido,
        input: parsed.value,
        // No context schema, no context given: what `validateToolContext` returns then.
        options: { toolCallId: TOOL_CALL_ID, messages: [], abortSignal: undefined, context: undefined as never },
      });
      for await (const part of stream) if (part.type === 'final') output = part.output;
      const toolResult = { type: 'tool-result', toolCallId: TOOL_CALL_ID, toolName: TOOL_NAME, input: parsed.value, output, dynamic: false };
      const modelOutput = { type: 'json', value: toolResult.output ?? null };
      return { type: 'tool_result', tool_use_id: toolResult.toolCallId, content: JSON.stringify(modelOutput.value) };
    },
  };
}
