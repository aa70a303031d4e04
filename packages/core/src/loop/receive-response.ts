import type { ContentBlock, Message, RawMessageStreamEvent, StopReason, Usage } from '@anthropic-ai/sdk/resources/messages';
import { ABORTED, iterateUntilAborted, untilAborted } from './abortable-wait';
import { MessageAccumulator } from './message-accumulator';
import { MalformedResponse, responseProblem } from './response-shape';
import type { ToolStreamEvent } from './stream-events';

/** How a response ended, whatever the transport. */
export type Received =
  | { kind: 'complete'; stopReason: StopReason | null }
  | { kind: 'aborted' }
  | { kind: 'request_failed'; error: unknown }
  /** A stream error event, a dropped connection: what arrived before it is kept. */
  | { kind: 'interrupted'; error: unknown }
  | { kind: 'malformed'; problem: string };

/** What the engine does with a response as it arrives. */
export interface ResponseSink {
  /** The response has begun to arrive: it counts as a turn. */
  began(): void;
  /** The usage known so far. */
  usage(usage: Usage): void;
  /** The code execution container the response ran in: later requests name it. */
  container(id: string): void;
  /** A complete block, in order; throws `MalformedResponse` for one that cannot be kept. */
  block(block: ContentBlock, index: number): void;
  /** The model has moved past every block so far: their reads may start. */
  movedPast(): void;
  emit(event: ToolStreamEvent): void;
}

/** A `messages.create` answer: every block at once, the model past all of them. */
export async function receiveWhole(request: () => PromiseLike<Message>, sink: ResponseSink, signal: AbortSignal): Promise<Received> {
  let response: Message | typeof ABORTED;
  try {
    response = await untilAborted(request(), signal);
  } catch (error) {
    return { kind: 'request_failed', error };
  }
  if (response === ABORTED) return { kind: 'aborted' };
  sink.began();
  const problem = responseProblem(response);
  if (problem) return { kind: 'malformed', problem };
  sink.usage(response.usage);
  if (response.container?.id) sink.container(response.container.id);
  try {
    response.content.forEach((block, index) => sink.block(block, index));
  } catch (error) {
    if (error instanceof MalformedResponse) return { kind: 'malformed', problem: error.message };
    throw error;
  }
  return { kind: 'complete', stopReason: response.stop_reason ?? null };
}

/** A streamed answer (`stream: true`): blocks as they complete, deltas as they arrive. */
export async function receiveStream(
  request: () => PromiseLike<AsyncIterable<RawMessageStreamEvent>>,
  sink: ResponseSink,
  turn: number,
  signal: AbortSignal,
): Promise<Received> {
  let events: AsyncIterable<RawMessageStreamEvent> | typeof ABORTED;
  try {
    events = await untilAborted(request(), signal);
  } catch (error) {
    return { kind: 'request_failed', error };
  }
  if (events === ABORTED) return { kind: 'aborted' };
  const message = new MessageAccumulator();
  try {
    for await (const event of iterateUntilAborted(events, signal)) {
      const wasStarted = message.started;
      const step = message.apply(event);
      if (!wasStarted && message.started) sink.began();
      const usage = message.totalUsage();
      if (usage) sink.usage(usage);
      if (step.kind === 'container') sink.container(step.id);
      switch (step.kind) {
        case 'block_start':
          sink.movedPast();
          break;
        case 'text':
          sink.emit({ type: 'text_delta', turn, index: step.index, text: step.text });
          break;
        case 'thinking':
          sink.emit({ type: 'thinking_delta', turn, index: step.index, thinking: step.thinking });
          break;
        case 'input':
          if (step.block.type === 'tool_use') {
            sink.emit({ type: 'tool_input_delta', turn, index: step.index, toolUseId: step.block.id, toolName: step.block.name, partialJson: step.partialJson });
          }
          break;
        case 'block_stop':
          sink.block(step.block, step.index);
          break;
        case 'stop_reason':
          if (step.container) sink.container(step.container);
          if (step.stopReason === 'tool_use') sink.movedPast();
          break;
      }
    }
  } catch (error) {
    if (signal.aborted) return { kind: 'aborted' };
    if (error instanceof MalformedResponse) return { kind: 'malformed', problem: error.message };
    return { kind: 'interrupted', error };
  }
  // The SDK ends the iteration quietly when the request is aborted, and so does the wait on it.
  if (signal.aborted) return { kind: 'aborted' };
  if (!message.started) return { kind: 'interrupted', error: new Error('the stream ended before message_start') };
  if (!message.stopped) return { kind: 'interrupted', error: new Error('the stream ended before message_stop') };
  return { kind: 'complete', stopReason: message.stopReason };
}
