import type {
  ContentBlock,
  Message,
  RawMessageStreamEvent,
  StopReason,
  TextCitation,
  Usage,
} from '@anthropic-ai/sdk/resources/messages';
import { MalformedResponse, blockProblem, usageProblem } from './response-shape';

/** What one stream event meant, for the engine. */
export type StreamStep =
  | { kind: 'block_start'; index: number; block: ContentBlock }
  | { kind: 'text'; index: number; text: string }
  | { kind: 'thinking'; index: number; thinking: string }
  | { kind: 'input'; index: number; block: ContentBlock; partialJson: string }
  /** A block whose stop arrived; `block` holds its whole content. */
  | { kind: 'block_stop'; index: number; block: ContentBlock }
  | { kind: 'stop_reason'; stopReason: StopReason | null; container?: string }
  | { kind: 'message_stop' }
  /** The code execution container the response runs in, from `message_start` or `message_delta`. */
  | { kind: 'container'; id: string }
  | { kind: 'ignored' };

interface Slot {
  block: ContentBlock;
  json: string;
  complete: boolean;
}

/**
 * Builds the assistant message from the raw events of a streamed response, as the SDK's own
 * `MessageStream` does, and keeps what is known when the stream ends early: the blocks whose
 * stop arrived are complete; the rest are not.
 */
export class MessageAccumulator {
  private message?: Message;
  private readonly slots: Slot[] = [];
  private usage?: Usage;
  stopReason: StopReason | null = null;
  stopSequence: string | null = null;
  /** `message_stop` arrived: the response is whole. */
  stopped = false;

  get started(): boolean {
    return this.message !== undefined;
  }

  /** The complete blocks, in order. */
  completeBlocks(): ContentBlock[] {
    return this.slots.filter((s) => s.complete).map((s) => s.block);
  }

  totalUsage(): Usage | undefined {
    return this.usage;
  }

  apply(event: RawMessageStreamEvent): StreamStep {
    if (typeof event !== 'object' || event === null) throw new MalformedResponse('a stream event is not an object');
    if (event.type !== 'message_start' && !this.message && isMessageEvent(event.type)) {
      throw new MalformedResponse(`${event.type} arrived before message_start`);
    }
    switch (event.type) {
      case 'message_start': {
        if (this.message) throw new MalformedResponse('a second message_start arrived');
        if (!Array.isArray(event.message?.content)) throw new MalformedResponse('message_start: content is not a list of blocks');
        const problem = usageProblem(event.message.usage);
        if (problem) throw new MalformedResponse(`message_start: ${problem}`);
        this.message = event.message;
        this.usage = { ...event.message.usage };
        const container = event.message.container?.id;
        return typeof container === 'string' ? { kind: 'container', id: container } : { kind: 'ignored' };
      }
      case 'content_block_start': {
        const problem = blockProblem(event.content_block);
        if (problem) throw new MalformedResponse(`content_block_start ${event.index} ${problem}`);
        if (event.index !== this.slots.length) throw new MalformedResponse(`content_block_start ${event.index} arrived out of order`);
        const block = structuredClone(event.content_block);
        if (block.type === 'tool_use' || block.type === 'server_tool_use') block.input = {};
        this.slots.push({ block, json: '', complete: false });
        return { kind: 'block_start', index: event.index, block };
      }
      case 'content_block_delta':
        return this.delta(event.index, event.delta);
      case 'content_block_stop': {
        const slot = this.open(event.index);
        if (slot.block.type === 'tool_use' || slot.block.type === 'server_tool_use') {
          try {
            slot.block.input = slot.json === '' ? {} : JSON.parse(slot.json);
          } catch {
            if (slot.block.type !== 'tool_use') throw new MalformedResponse(`the input of block ${event.index} (${slot.block.id}) is not valid JSON`);
            // With eager_input_streaming the input arrives unbuffered, so a message cut off by
            // max_tokens can end a block mid-JSON; the API takes it back wrapped this way.
            slot.block.input = { INVALID_JSON: slot.json };
          }
        }
        slot.complete = true;
        return { kind: 'block_stop', index: event.index, block: slot.block };
      }
      case 'message_delta': {
        this.stopReason = event.delta?.stop_reason ?? null;
        this.stopSequence = event.delta?.stop_sequence ?? null;
        // The delta's counts are cumulative; a null one was not reported and keeps the start's value.
        for (const [key, value] of Object.entries(event.usage ?? {})) {
          if (value !== null && value !== undefined) (this.usage as unknown as Record<string, unknown>)[key] = value;
        }
        // Code execution's container may be named only at the end of the message.
        const container = event.delta?.container?.id;
        return { kind: 'stop_reason', stopReason: this.stopReason, container: typeof container === 'string' ? container : undefined };
      }
      case 'message_stop':
        this.stopped = true;
        return { kind: 'message_stop' };
      default:
        // `ping` and event types newer than this code carry nothing the loop needs.
        return { kind: 'ignored' };
    }
  }

  private open(index: number): Slot {
    const slot = this.slots[index];
    if (!slot || slot.complete) throw new MalformedResponse(`an event arrived for block ${index}, which is not open`);
    return slot;
  }

  private delta(index: number, delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta']): StreamStep {
    const slot = this.open(index);
    const block = slot.block;
    switch (delta?.type) {
      case 'text_delta':
        if (block.type !== 'text') break;
        block.text += delta.text;
        return { kind: 'text', index, text: delta.text };
      case 'citations_delta':
        if (block.type !== 'text') break;
        block.citations = [...(block.citations ?? []), delta.citation as TextCitation];
        return { kind: 'ignored' };
      case 'thinking_delta':
        if (block.type !== 'thinking') break;
        block.thinking += delta.thinking;
        return { kind: 'thinking', index, thinking: delta.thinking };
      case 'signature_delta':
        if (block.type !== 'thinking') break;
        block.signature = delta.signature;
        return { kind: 'ignored' };
      case 'input_json_delta':
        if (block.type !== 'tool_use' && block.type !== 'server_tool_use') break;
        slot.json += delta.partial_json;
        return { kind: 'input', index, block, partialJson: delta.partial_json };
      default:
        return { kind: 'ignored' };
    }
    throw new MalformedResponse(`a ${delta.type} arrived for block ${index}, a ${block.type} block`);
  }
}

function isMessageEvent(type: string): boolean {
  return type.startsWith('content_block_') || type === 'message_delta' || type === 'message_stop';
}
