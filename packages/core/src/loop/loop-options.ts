import type { MessageCreateParamsNonStreaming, MessageParam, Model, ToolChoice, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ToolContainer } from '../container';
import type { ExecuteOptions } from '../execution/batch-executor';
import type { PendingCall } from '../approval/run-state';
import type { RunStateSecret, SignedRunState } from '../approval/run-state-signature';
import type { RunStore } from '../approval/run-store';
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
   * one that moves with the conversation (see docs/claude-api-features.md). `false` sends none.
   * None are added either when the request already carries one of the caller's.
   */
  promptCaching?: boolean;
  /** Sent on every request; `container` is replaced by the one code execution reports. */
  params?: PassThroughParams;
  /**
   * Where the run and its results live. With a store the run is saved as it goes, every call's
   * result is journaled by `tool_use_id` (no call runs twice, whoever replays the run), and a
   * batch with calls that need approval pauses the run (`stopReason: 'approval_required'`).
   * Required when the container may ask for approval.
   */
  store?: RunStore;
  /** Signs the saved state (`signedState`) for a state that travels outside the server; 32 bytes or more. */
  secret?: RunStateSecret;
  /**
   * Who starts the run, as the app names them (a customer or user id; opaque to toolwright):
   * saved with the run in `store`. `resumeToolLoop` then refuses any other `owner`
   * (`DecisionError('not_owner')`) before anything runs. A run started without one can be
   * resumed by anyone.
   */
  owner?: string;
}

export interface ToolLoopResult {
  /** The model's final text, or, when the run did not finish, a sentence saying so for the user. */
  text: string;
  /** The whole conversation, every `tool_use` answered: valid to send again. */
  messages: MessageParam[];
  stopReason: ToolLoopStopReason;
  /** The run in `store`; set whenever a store was given. */
  runId?: string;
  /**
   * With `stopReason: 'approval_required'`: the calls a person must decide on, in order. The last
   * message of `messages` then holds `tool_use` blocks that `resumeToolLoop` will answer.
   */
  pending?: PendingCall[];
  /** The saved state signed with `secret`, when one was given: hand it out, take it back to resume. */
  signedState?: SignedRunState;
  /** Responses received. */
  turns: number;
  usage: ToolLoopUsage;
}
