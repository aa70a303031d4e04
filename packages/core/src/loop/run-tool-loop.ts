import type {
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Model,
  ToolChoice,
  ToolResultBlockParam,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages';
import { consoleLogger } from '../context';
import { checkPositiveInteger } from '../execution/check-options';
import type { ExecuteOptions, ToolContainer } from '../container';
import type { ToolLoopEvent } from './loop-events';
import type { MessagesClient } from './messages-client';
import {
  CUT_OFF_MESSAGE,
  endedTurnMessage,
  incompleteNotice,
  notExecutedMessage,
  type ToolLoopLimit,
  type ToolLoopLimits,
  type ToolLoopStopReason,
} from './stop-reasons';
import { ToolLoopError } from './tool-loop-error';
import { checkTranscript } from './transcript-rules';
import { addUsage, emptyUsage, type ToolLoopUsage } from './usage';

/** Request parameters sent as given on every request, for those the loop does not set itself. */
export type PassThroughParams = Omit<
  MessageCreateParamsNonStreaming,
  'model' | 'messages' | 'system' | 'tools' | 'tool_choice' | 'max_tokens' | 'stream'
>;

export interface ToolLoopOptions<TAuth = unknown> {
  /** `new Anthropic()`, or anything with its `messages.create`. */
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
    /** Wall-clock milliseconds since the run started, checked before each request and before tools run. */
    ms?: number;
  };
  toolChoice?: ToolChoice;
  /** Aborts the request in flight and the tools running; the run resolves with `stopReason: 'aborted'`. */
  signal?: AbortSignal;
  onEvent?: (event: ToolLoopEvent) => void;
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

const DEFAULT_MAX_TURNS = 10;
const DEFAULT_MAX_TOKENS = 4096;

/**
 * Runs the conversation until the model stops asking for tools or a limit is reached, over
 * the stable `client.messages.create`. Every `tool_use` is answered in the next user message;
 * a tool runs only when its result can still be sent.
 */
export async function runToolLoop<TAuth>(options: ToolLoopOptions<TAuth>): Promise<ToolLoopResult> {
  const started = Date.now();
  const limits: ToolLoopLimits = {
    maxTurns: positiveInteger('maxTurns', options.maxTurns ?? DEFAULT_MAX_TURNS),
    outputTokens: optional(positiveInteger, 'budget.outputTokens', options.budget?.outputTokens),
    ms: optional(positiveInteger, 'budget.ms', options.budget?.ms),
  };
  const messages = initialMessages(options);
  const request = {
    ...options.params,
    model: options.model,
    max_tokens: positiveInteger('maxTokens', options.maxTokens ?? DEFAULT_MAX_TOKENS),
    ...(options.system !== undefined && { system: options.system }),
    // One array for the whole run: the same tools on every request, as a paused server call needs.
    tools: [...options.tools.definitions(), ...(options.serverTools ?? [])],
    ...(options.toolChoice && { tool_choice: options.toolChoice }),
  };
  const usage = emptyUsage();
  let turns = 0;

  const emit = (event: ToolLoopEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      consoleLogger.error(`toolwright: an onEvent listener threw on ${event.type}; the run is unaffected:`, error);
    }
  };
  const reachedLimit = (): ToolLoopLimit | undefined => {
    if (options.signal?.aborted) return 'aborted';
    if (turns >= limits.maxTurns) return 'max_turns';
    if (limits.outputTokens !== undefined && usage.outputTokens >= limits.outputTokens) return 'output_tokens_budget';
    if (limits.ms !== undefined && Date.now() - started >= limits.ms) return 'time_budget';
    return undefined;
  };
  const finish = (stopReason: ToolLoopStopReason, text: string): ToolLoopResult => ({
    text,
    messages,
    stopReason,
    turns,
    usage,
  });
  const stopAtLimit = (limit: ToolLoopLimit): ToolLoopResult => {
    const notExecuted = answerPendingCalls(messages, notExecutedMessage(limit, limits));
    emit({ type: 'limit', limit, at: Date.now(), notExecuted });
    return finish(limit, incompleteNotice(limit, limits));
  };

  for (;;) {
    const limit = reachedLimit();
    if (limit) return stopAtLimit(limit);

    const sentAt = Date.now();
    emit({ type: 'request', turn: turns + 1, at: sentAt, messageCount: messages.length });
    let response: Message;
    try {
      response = await options.client.messages.create({ ...request, messages: [...messages] }, { signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted) return stopAtLimit('aborted');
      throw new ToolLoopError(`runToolLoop: request ${turns + 1} failed: ${describe(error)}`, {
        cause: error,
        messages,
        turns,
        usage,
      });
    }
    turns += 1;
    addUsage(usage, response.usage);
    messages.push({ role: 'assistant', content: response.content });
    emit({
      type: 'response',
      turn: turns,
      at: Date.now(),
      durationMs: Date.now() - sentAt,
      stopReason: response.stop_reason,
      usage: response.usage,
    });

    switch (response.stop_reason) {
      case 'tool_use': {
        const limitBeforeTools = reachedLimit();
        if (limitBeforeTools) return stopAtLimit(limitBeforeTools);
        messages.push(
          await options.tools.reply(response.content, { ...options.context, signal: options.signal, onEvent: emit }),
        );
        break;
      }
      case 'pause_turn':
        break;
      case 'max_tokens': {
        const text = finalText(messages);
        const cutOff = answerPendingCalls(messages, CUT_OFF_MESSAGE);
        return finish('max_tokens', cutOff.length > 0 ? incompleteNotice('max_tokens', limits) : text);
      }
      default: {
        const stopReason = response.stop_reason ?? 'end_turn';
        const text = finalText(messages);
        answerPendingCalls(messages, endedTurnMessage(stopReason));
        return finish(stopReason, text);
      }
    }
  }
}

function initialMessages(options: ToolLoopOptions<unknown>): MessageParam[] {
  const messages = [...(options.messages ?? [])];
  if (options.prompt !== undefined) messages.push({ role: 'user', content: options.prompt });
  if (messages.length === 0) throw new TypeError('runToolLoop: give `messages` or a `prompt`.');
  const violations = checkTranscript(messages);
  if (violations.length > 0) {
    throw new TypeError(
      `runToolLoop: \`messages\` break the protocol:\n${violations.map((v) => `messages.${v.messageIndex}: ${v.message}`).join('\n')}`,
    );
  }
  return messages;
}

/**
 * Answers, `is_error` with `reason`, every `tool_use` of the last message when it is an
 * assistant turn, so the conversation stays valid. Returns the ids it answered.
 */
function answerPendingCalls(messages: MessageParam[], reason: string): string[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || typeof last.content === 'string') return [];
  const ids = last.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
  if (ids.length > 0) {
    const content: ToolResultBlockParam[] = ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: reason, is_error: true }));
    messages.push({ role: 'user', content });
  }
  return ids;
}

/** The text of the last assistant turn, a paused turn's continuations included. */
function finalText(messages: readonly MessageParam[]): string {
  const parts: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role === 'assistant'; i--) {
    const content = messages[i].content;
    parts.unshift(typeof content === 'string' ? content : content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''));
  }
  return parts.join('');
}

function positiveInteger(name: string, value: number): number {
  checkPositiveInteger(`runToolLoop: ${name}`, value);
  return value;
}

function optional<T>(check: (name: string, value: T) => T, name: string, value: T | undefined): T | undefined {
  return value === undefined ? undefined : check(name, value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
