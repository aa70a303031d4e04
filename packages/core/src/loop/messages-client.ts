import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';

/**
 * What the loop needs of an Anthropic client: `new Anthropic()` fits, whichever build of the
 * SDK the app resolves (ESM `.d.mts` or CommonJS `.d.ts`), because only plain interfaces
 * are named here, never the SDK's classes, which TypeScript compares by declaration.
 */
export interface MessagesClient {
  messages: {
    create(body: MessageCreateParamsNonStreaming, options?: { signal?: AbortSignal }): PromiseLike<Message>;
  };
}
