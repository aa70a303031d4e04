import type {
  Message,
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';

/** The request options the loops pass: only the signal that aborts the request. */
export interface MessagesRequestOptions {
  signal?: AbortSignal;
}

/**
 * The smallest client the loops use, typed structurally: an `Anthropic` client of any build
 * fits (an ESM app and this CommonJS package see the SDK's classes as different types), and so
 * does a test double. `runToolLoop` calls the first form, `streamToolLoop` the second.
 */
export interface MessagesClient {
  messages: {
    create(body: MessageCreateParamsNonStreaming, options?: MessagesRequestOptions): PromiseLike<Message>;
    create(body: MessageCreateParamsStreaming, options?: MessagesRequestOptions): PromiseLike<AsyncIterable<RawMessageStreamEvent>>;
  };
}
