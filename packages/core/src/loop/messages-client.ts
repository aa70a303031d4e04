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
 * What the loops need of an Anthropic client: `new Anthropic()` fits, whichever build of the
 * SDK the app resolves (ESM `.d.mts` or CommonJS `.d.ts`), because only plain interfaces
 * are named here, never the SDK's classes, which TypeScript compares by declaration.
 * `runToolLoop` calls the first form; `streamToolLoop` the second, whose `Stream` is, for the
 * loop, just an async iterable of raw events.
 */
export interface MessagesClient {
  messages: {
    create(body: MessageCreateParamsNonStreaming, options?: MessagesRequestOptions): PromiseLike<Message>;
    create(body: MessageCreateParamsStreaming, options?: MessagesRequestOptions): PromiseLike<AsyncIterable<RawMessageStreamEvent>>;
  };
}
