import type { ContentBlock, ContentBlockParam, Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ToolEffect } from '../decorators/tool-options';
import type { ToolEvent } from './call.types';
import type { WriteFailurePolicy } from './schedule';

/** Any block of an assistant message, as received or as stored for the next request. */
export type AssistantContentBlock = ContentBlock | ContentBlockParam;

export interface ExecuteOptions<TAuth = unknown> {
  /** The authenticated identity of the session; reaches tools as `ctx.auth`. */
  auth?: TAuth;
  /** Aborting it cancels the batch: nothing new starts, running calls see their signal abort. */
  signal?: AbortSignal;
  maxConcurrency?: number;
  onWriteFailure?: WriteFailurePolicy;
  onEvent?: (event: ToolEvent) => void;
}

/**
 * What the surfaces that schedule calls themselves (the SDK tool runner, the agent-framework
 * adapters) need of a `ToolContainer`: its definitions, each tool's effect, and batches. Declared
 * here, below the container, so those surfaces depend on the execution stage, not on the container.
 */
export interface BatchExecutor<TAuth = unknown> {
  definitions(): Tool[];
  effectOf(name: string): ToolEffect | undefined;
  readonly scheduling: Readonly<{ maxConcurrency: number; onWriteFailure: WriteFailurePolicy }>;
  execute(content: readonly AssistantContentBlock[], options?: ExecuteOptions<TAuth>): Promise<ToolResultBlockParam[]>;
}
