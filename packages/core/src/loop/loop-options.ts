import type { MessageCreateParamsNonStreaming, MessageParam, Model, ToolChoice, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ExecuteOptions, ToolContainer } from '../container';
import type { ToolLoopEvent } from './loop-events';
import type { MessagesClient } from './messages-client';
import type { ToolLoopStopReason } from './stop-reasons';
import type { ToolLoopUsage } from './usage';

/** Request parameters sent as given on every request, for those the loop does not set itself. */
export type PassThroughParams = Omit<
  MessageCreateParamsNonStreaming,
  'model' | 'messages' | 'system' | 'tools' | 'tool_choice' | 'max_tokens' | 'stream'
>;

/** The options of `runToolLoop` and `streamToolLoop`. */
export interface ToolLoopOptions<TAuth = unknown> {
  /** An `Anthropic` client, or anything with the same `messages.create`. */
  client: MessagesClient;
  model: Model;
  /** The conversation so far; a run that ended on a limit resumes from its `messages`. */
  messages?: readonly MessageParam[];
  /** A new user message, appended after `messages`. */
  prompt?: string;
  system?: MessageCreateParamsNonStreaming['system'];
  tools: ToolContainer<TAuth>;
  /** Tools Anthropic runs (web search, ...), sent after the container's definitions. */
  serverTools?: readonly ToolUnion[];
  /** Passed to every `execute`: `auth` above all. */
  context?: Omit<ExecuteOptions<TAuth>, 'signal' | 'onEvent'>;
  /** Requests at most; default 10. The tools of the last allowed turn do not run. */
  maxTurns?: number;
  /** `max_tokens` of each request; default 4096. */
  maxTokens?: number;
  budget?: {
    /** Output tokens summed over the run; once reached, no more tools run. */
    outputTokens?: number;
    /** Wall-clock milliseconds since the run started, checked before each request and before each tool starts. */
    ms?: number;
  };
  toolChoice?: ToolChoice;
  /** Aborts the request in flight and the tools running; the run resolves with `stopReason: 'aborted'`. */
  signal?: AbortSignal;
  onEvent?: (event: ToolLoopEvent) => void;
  /**
   * Prompt caching, on by default: a `cache_control` breakpoint after the tool definitions and
   * one that moves with the conversation (see README, "Claude API features"). `false` sends none.
   * None are added either when the request already carries one of the caller's.
   */
  promptCaching?: boolean;
  /** Sent on every request; `container` is replaced by the one code execution reports. */
  params?: PassThroughParams;
}

export interface ToolLoopResult {
  /** The model's final text, or, when the run did not finish, a sentence saying so for the user. */
  text: string;
  /** The whole conversation, every `tool_use` answered: valid to send again. */
  messages: MessageParam[];
  stopReason: ToolLoopStopReason;
  /** Responses received. */
  turns: number;
  usage: ToolLoopUsage;
}
