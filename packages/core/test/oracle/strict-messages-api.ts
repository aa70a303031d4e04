// An independent oracle for the Messages API's request rules, written from Anthropic's
// documentation (tool use, "Handle tool calls"; Messages API reference; prompt caching), not
// from toolwright's own `checkTranscript` (packages/core/src/loop/transcript-rules.ts), with
// which it shares no code: a misreading of the API in one is not repeated in the other.
// It is strict: where the API would quietly repair a request (two user messages in a row are
// merged into one turn), it refuses, because toolwright never sends one. Two assistant messages
// in a row it accepts: that is how a `pause_turn` continues (the paused message is sent back
// as is and the continuation follows it), and the API combines them into one turn.
//
// The rules, as the documentation states them:
// - "Tool result blocks must immediately follow their corresponding tool use blocks in the
//   message history. You cannot include any messages between the assistant's tool use message
//   and the user's tool result message."
// - "In the user message containing tool results, the tool_result blocks must come FIRST in the
//   content array. Any text must come AFTER all tool results."
// - "Each `tool_use` block must have a corresponding `tool_result` block in the next message",
//   and each tool_result a corresponding tool_use in the previous message, by `tool_use_id`.
// - The conversation alternates user and assistant turns, starting with the user; "consecutive
//   user or assistant turns in your request will be combined into a single turn".
// - Requests which include tool_use or tool_result blocks must define tools.
// - Text content blocks must be non-empty; a message's content is a non-empty string or list.
// - At most 4 cache_control breakpoints per request, the top-level one included.
// - A server tool's result (server_tool_use) comes back in the same assistant message: no
//   tool_result is owed for it.

export interface StrictRequest {
  messages: readonly unknown[];
  tools?: readonly unknown[];
  system?: unknown;
  cache_control?: unknown;
}

type Block = { type?: unknown; [key: string]: unknown };

const MAX_BREAKPOINTS = 4;
const ID = /^[a-zA-Z0-9_-]+$/;

/** The 400s the API would answer this request with, in its own words; empty when it is accepted. */
export function strictRefusals(request: StrictRequest): string[] {
  const refusals: string[] = [];
  const { messages } = request;
  if (!Array.isArray(messages) || messages.length === 0) return ['messages: at least one message is required'];

  let breakpoints = hasCacheControl(request) ? 1 : 0;
  for (const tool of request.tools ?? []) if (hasCacheControl(tool)) breakpoints++;
  if (Array.isArray(request.system)) for (const block of request.system) if (hasCacheControl(block)) breakpoints++;

  const seenToolUseIds = new Set<string>();
  let usesTools = false;
  let owed: string[] = [];
  let owedBy = -1;

  messages.forEach((raw, index) => {
    const message = raw as { role?: unknown; content?: unknown };
    const where = `messages.${index}`;
    if (message.role !== 'user' && message.role !== 'assistant') {
      refusals.push(`${where}.role: must be "user" or "assistant"`);
      return;
    }
    if (index === 0 && message.role !== 'user') refusals.push(`${where}: the first message must use the "user" role`);
    const previous = index > 0 ? (messages[index - 1] as { role?: unknown }).role : undefined;
    if (previous === 'user' && message.role === 'user') refusals.push(`${where}: roles must alternate between "user" and "assistant"`);

    const blocks = contentBlocks(message.content);
    if (blocks === undefined) {
      refusals.push(`${where}.content: must be a non-empty string or a non-empty list of blocks`);
      return;
    }
    blocks.forEach((block, b) => {
      if (hasCacheControl(block)) breakpoints++;
      if (block.type === 'text' && (typeof block.text !== 'string' || block.text.length === 0)) {
        refusals.push(`${where}.content.${b}: text content blocks must be non-empty`);
      }
    });

    // What the previous assistant message asked for must be answered here, first, in full.
    if (owed.length > 0) {
      if (message.role !== 'user') {
        refusals.push(`messages.${owedBy}: tool_use ids were found without tool_result blocks immediately after: ${owed.join(', ')}`);
      } else {
        const leading: string[] = [];
        for (const block of blocks) {
          if (block.type !== 'tool_result') break;
          leading.push(String(block.tool_use_id));
        }
        const missing = owed.filter((id) => !leading.includes(id));
        if (missing.length > 0) {
          refusals.push(`messages.${owedBy}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}`);
        }
      }
    }

    if (message.role === 'user') {
      const answered = new Set<string>();
      let textSeen = false;
      blocks.forEach((block, b) => {
        if (block.type === 'tool_use' || block.type === 'server_tool_use') refusals.push(`${where}.content.${b}: tool_use blocks are only allowed in assistant messages`);
        if (block.type !== 'tool_result') {
          textSeen = true;
          return;
        }
        usesTools = true;
        const id = String(block.tool_use_id);
        if (textSeen) refusals.push(`${where}.content.${b}: tool_result blocks must come before any other content`);
        if (!owed.includes(id)) refusals.push(`${where}.content.${b}: unexpected tool_use_id found in tool_result blocks: ${id}. Each tool_result block must have a corresponding tool_use block in the previous message.`);
        if (answered.has(id)) refusals.push(`${where}.content.${b}: each tool_use must have a single result; found multiple tool_result blocks with id: ${id}`);
        answered.add(id);
      });
      owed = [];
      owedBy = -1;
      return;
    }

    owed = [];
    blocks.forEach((block, b) => {
      if (block.type === 'tool_result') refusals.push(`${where}.content.${b}: tool_result blocks are only allowed in user messages`);
      if (block.type !== 'tool_use' && block.type !== 'server_tool_use') return;
      usesTools = true;
      const id = block.id;
      if (typeof id !== 'string' || !ID.test(id)) {
        refusals.push(`${where}.content.${b}.id: String should match pattern '${ID.source}'`);
        return;
      }
      if (seenToolUseIds.has(id)) refusals.push(`${where}.content.${b}: tool_use ids must be unique: ${id}`);
      seenToolUseIds.add(id);
      if (block.type === 'tool_use') owed.push(id);
    });
    owedBy = index;
  });

  if (owed.length > 0) refusals.push(`messages.${owedBy}: tool_use ids were found without tool_result blocks immediately after: ${owed.join(', ')}`);
  if (usesTools && (request.tools === undefined || request.tools.length === 0)) {
    refusals.push('Requests which include `tool_use` or `tool_result` blocks must define tools.');
  }
  if (breakpoints > MAX_BREAKPOINTS) refusals.push(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`);
  return refusals;
}

function contentBlocks(content: unknown): Block[] | undefined {
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : undefined;
  if (!Array.isArray(content) || content.length === 0) return undefined;
  return content as Block[];
}

function hasCacheControl(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { cache_control?: unknown }).cache_control != null;
}
