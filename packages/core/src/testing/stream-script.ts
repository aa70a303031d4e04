import type { ContentBlock, Message, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';

/** What a streamed scripted turn sends: the API's events, plus its keep-alive `ping`. */
export type ScriptedStreamEvent = RawMessageStreamEvent | { type: 'ping' };

/** How a scripted turn streams when the request has `stream: true`. */
export interface StreamScript {
  /** Milliseconds to wait before each event: one figure for all, or a function of the event and its position. Default 0. */
  delayMs?: number | ((event: ScriptedStreamEvent, position: number) => number);
  /** Characters per `text_delta`, `thinking_delta` and `input_json_delta`. Default: a block's whole content in one delta. */
  chunkChars?: number;
  /** Sends the API's `error` event instead of the event at this position, then ends the stream. */
  errorAt?: number;
  /** The `error` event's body. Default: `overloaded_error`, "Overloaded". */
  error?: { type: string; message: string };
  /** Drops the connection before the event at this position: no `message_stop`, no error. */
  dropAt?: number;
}

/**
 * The events the Messages API streams for `message`: `message_start`, a `ping`, per block
 * `content_block_start`, its deltas and `content_block_stop`, then `message_delta` (stop reason,
 * output tokens) and `message_stop`. Also what an in-process fake client can replay.
 */
export function scriptedStreamEvents(message: Message, options: Pick<StreamScript, 'chunkChars'> = {}): ScriptedStreamEvent[] {
  const chunk = (text: string) => split(text, options.chunkChars);
  const events: ScriptedStreamEvent[] = [
    {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...message.usage, output_tokens: 1 } },
    },
    { type: 'ping' },
  ];
  message.content.forEach((block, index) => {
    events.push({ type: 'content_block_start', index, content_block: emptied(block) as never });
    for (const delta of deltas(block, chunk)) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
  });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence, stop_details: null, container: message.container },
      usage: {
        output_tokens: message.usage.output_tokens,
        input_tokens: null,
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        output_tokens_details: null,
        server_tool_use: null,
      },
    },
    { type: 'message_stop' },
  );
  return events;
}

type Delta = Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'];

function deltas(block: ContentBlock, chunk: (text: string) => string[]): Delta[] {
  switch (block.type) {
    case 'text':
      return chunk(block.text).map((text) => ({ type: 'text_delta', text }));
    case 'thinking':
      return [...chunk(block.thinking).map((thinking): Delta => ({ type: 'thinking_delta', thinking })), { type: 'signature_delta', signature: block.signature }];
    case 'tool_use':
    case 'server_tool_use':
      return chunk(JSON.stringify(block.input)).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
    default:
      return [];
  }
}

/** The block as `content_block_start` carries it: its streamed content left for the deltas. */
function emptied(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case 'text':
      return { ...block, text: '', citations: null };
    case 'thinking':
      return { ...block, thinking: '', signature: '' };
    case 'tool_use':
    case 'server_tool_use':
      return { ...block, input: {} };
    default:
      return block;
  }
}

function split(text: string, size: number | undefined): string[] {
  if (text === '') return [];
  if (!size || size < 1) return [text];
  // By code points, so a delta never ends inside a surrogate pair.
  const points = [...text];
  const parts: string[] = [];
  for (let i = 0; i < points.length; i += size) parts.push(points.slice(i, i + size).join(''));
  return parts;
}
