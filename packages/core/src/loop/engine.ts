import type { ContentBlock, MessageParam, ToolResultBlockParam, ToolUnion, ToolUseBlock, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { RunBudgetsUsed } from '../approval/run-state';
import type { SupersededDecision } from '../approval/decisions';
import { consoleLogger } from '../context';
import { checkPositiveInteger } from '../execution/check-options';
import type { ToolLoopEvent } from './loop-events';
import type { ToolLoopOptions, ToolLoopResult } from './loop-options';
import { receiveStream, receiveWhole, type ResponseSink } from './receive-response';
import { MalformedResponse, storable, MAX_TRANSCRIPT_DEPTH } from './response-shape';
import {
  CUT_OFF_MESSAGE,
  INTERRUPTED_MESSAGE,
  NO_STOP_REASON_MESSAGE,
  PAUSED_MESSAGE,
  approvalNotice,
  endedTurnMessage,
  incompleteNotice,
  notExecutedMessage,
  type ToolLoopLimit,
  type ToolLoopLimits,
  type ToolLoopStopReason,
} from './stop-reasons';
import type { ToolStreamEvent } from './stream-events';
import { ToolLoopError } from './tool-loop-error';
import { DurableRun } from './durable-run';
import { afterFailure, resumeAdvice, storeFailure } from './store-failure';
import { RunStoreError } from '../approval/run-store-errors';
import { checkSecret } from '../approval/run-state-signature';
import { keyProblem } from '../approval/storable-key';
import { checkTranscript } from './transcript-rules';
import { TurnCalls } from './turn-calls';
import { callerRefusal } from './callers';
import { countBreakpoints, markTools, MovingBreakpoint } from './prompt-cache';
import { allowedCallers, requestTools } from './request-tools';
import { addUsage, emptyUsage, toLoopUsage } from './usage';

/** How an entry point drives the engine. */
export interface EngineMode {
  /** Names the entry point in error messages. */
  name: 'runToolLoop' | 'streamToolLoop' | 'resumeToolLoop' | 'streamResumeToolLoop';
  /** Streamed responses (`stream: true`), so reads can start before a message ends. */
  streaming: boolean;
  /** Receives the stream events; must not throw. */
  emit(event: ToolStreamEvent): void;
  /** A second way to abort the run (`stream.abort()`), besides `options.signal`. */
  signal?: AbortSignal;
}

/** A run taken back from its store by `resumeToolLoop`: claimed, its last batch still to answer. */
export interface EngineResume {
  run: DurableRun;
  /** Answers decided before the batch runs: journaled results, and denials (`failed`). */
  presets: Array<{ result: ToolResultBlockParam; failed: boolean }>;
  /** The options' settings, checked before the run was claimed. */
  settings: LoopSettings;
  /** This attempt's decisions that an earlier attempt's journaled answers superseded: reported first. */
  superseded: SupersededDecision[];
}

type LoopSettings = { limits: ToolLoopLimits; maxTokens: number; tools: ToolUnion[] };

const DEFAULT_MAX_TURNS = 10;
const DEFAULT_MAX_TOKENS = 4096;
const TOO_DEEP_MESSAGE = `Not executed: the input is nested deeper than ${MAX_TRANSCRIPT_DEPTH} levels.`;
const UNSTORABLE_INPUT_MESSAGE = 'Not executed: the input holds a NUL character or invalid UTF-16 (a lone surrogate). Send plain text.';

/**
 * The conversation loop, one state machine for `runToolLoop` and `streamToolLoop` (and their
 * resumed forms, given the claimed run as `resume`): request,
 * receive (whole or streamed), store the assistant message, answer every `tool_use` in one
 * user message (eager reads, committed writes: see `TurnCalls`), and go on until the model
 * stops or a limit is reached.
 */
export async function runEngine<TAuth>(options: ToolLoopOptions<TAuth>, mode: EngineMode, resume?: EngineResume): Promise<ToolLoopResult> {
  const started = Date.now() - (resume?.run.state.used.elapsedMs ?? 0);
  const { limits, maxTokens, tools } = resume?.settings ?? loopSettings(options, mode.name);
  const asksApproval = options.tools.asksApproval;
  const messages = resume ? structuredClone(resume.run.state.messages) : initialMessages(options, mode.name);
  const callers = allowedCallers(tools);
  // Breakpoints the user placed are theirs to manage: the loop adds none next to them.
  const caching = options.promptCaching !== false && countBreakpoints({ tools, system: options.system, messages, params: options.params }) === 0;
  const moving = caching ? new MovingBreakpoint() : undefined;
  // Code execution runs in a container; calls made from its code are answered into the same one.
  let container = typeof options.params?.container === 'string' ? options.params.container : undefined;
  const request = {
    ...options.params,
    model: options.model,
    max_tokens: maxTokens,
    ...(options.system !== undefined && { system: options.system }),
    tools: caching ? markTools(tools) : tools,
    ...(options.toolChoice && { tool_choice: options.toolChoice }),
  };
  const { signal, release } = anySignal(options.signal, mode.signal);
  /** The run while this process holds it, and the turn running: what a failure must settle. */
  const holding: { run?: DurableRun; calls?: TurnCalls; spent?: () => RunBudgetsUsed } = {};
  try {
    return await loop();
  } catch (error) {
    throw await interrupted(error);
  } finally {
    release();
  }

  /**
   * A failure this process saw: the turn's running calls finish, the run is saved and released
   * (see `DurableRun.interrupt`), and the error says so, with the run id.
   */
  async function interrupted(error: unknown): Promise<unknown> {
    const { run, calls, spent } = holding;
    if (!run || !spent) return error;
    await calls?.stop();
    const after = await run.interrupt(messages, spent());
    if (error instanceof RunStoreError) return afterFailure(after.lost ?? error, after);
    if (error instanceof ToolLoopError) {
      return new ToolLoopError(`${error.message} ${resumeAdvice(run.runId, after)}`, { ...error, cause: error.cause, runId: run.runId });
    }
    return error;
  }

  async function loop(): Promise<ToolLoopResult> {
    const usage = emptyUsage();
    let turns = 0;
    if (resume) {
      const { used } = resume.run.state;
      turns = used.turns;
      usage.inputTokens = used.usage.inputTokens;
      usage.outputTokens = used.usage.outputTokens;
      usage.cacheCreationInputTokens = used.usage.cacheCreationInputTokens;
      usage.cacheReadInputTokens = used.usage.cacheReadInputTokens;
    }
    const run = resume?.run ?? (options.store ? await DurableRun.start(options.store, messages, options.secret, options.owner, signal) : undefined);
    // An abort settles the run even while its store hangs: a store call unanswered then is given up.
    run?.follow(signal);
    const spent = (): RunBudgetsUsed => ({ turns, usage: { ...usage }, elapsedMs: Date.now() - started });
    Object.assign(holding, { run, spent });
    // Read once the run is held: a throw here settles it as any failure does.
    const seenIds = new Set(callIds(messages));

    const emitLoop = (event: ToolLoopEvent) => {
      try {
        options.onEvent?.(event);
      } catch (error) {
        consoleLogger.error(`toolwright: an onEvent listener threw on ${event.type}; the run is unaffected:`, error);
      }
    };
    const reachedLimit = (): ToolLoopLimit | undefined => {
      if (signal.aborted) return 'aborted';
      if (turns >= limits.maxTurns) return 'max_turns';
      if (limits.outputTokens !== undefined && usage.outputTokens >= limits.outputTokens) return 'output_tokens_budget';
      if (limits.ms !== undefined && Date.now() - started >= limits.ms) return 'time_budget';
      return undefined;
    };
    const finish = async (stopReason: ToolLoopStopReason, text: string): Promise<ToolLoopResult> => {
      // An abort is a failure this process observed, not an end: the run is saved and released,
      // so a retry resumes it at once (decisions `{}`).
      if (stopReason === 'aborted' && run) await release(run);
      else await run?.finish(messages, spent());
      return { text, messages, stopReason, turns, usage, ...(run && { runId: run.runId }) };
    };
    const release = async (held: DurableRun) => {
      const after = await held.interrupt(messages, spent());
      if (after.released) return;
      throw after.lost ?? storeFailure(held.runId, 'release', after.failure ?? new Error('the store refused to release the aborted run'), 'store_failed', after);
    };
    const stop = (limit: ToolLoopLimit, notExecuted: string[]): Promise<ToolLoopResult> => {
      const at = Date.now();
      emitLoop({ type: 'limit', limit, at, notExecuted });
      mode.emit({ type: 'limit', limit, at, notExecuted });
      return finish(limit, incompleteNotice(limit, limits));
    };
    /** `asking`: each call's approval is asked as its block completes (a resumed batch was decided already). */
    const newCalls = (turn: number, asking: boolean) =>
      (holding.calls = new TurnCalls({
        container: options.tools,
        context: options.context ?? {},
        turn,
        signal,
        limit: reachedLimit,
        limitMessage: (reached) => notExecutedMessage(reached, limits),
        emit: mode.emit,
        onToolEvent: emitLoop,
        ...(asking && asksApproval && { approval: (block: ToolUseBlock) => options.tools.checkApprovals([block], { auth: options.context?.auth }) }),
        ...(run && { journal: (result: ToolResultBlockParam) => run.journal(result), stopped: () => run.lost }),
      }));
    /** Commits the batch; every answer is journaled, so a replay answers it the same way. */
    const commit = async (calls: TurnCalls) => {
      const outcome = await calls.commit();
      if (run) {
        for (let i = 0; i < outcome.results.length; i++) outcome.results[i] = await run.journal(outcome.results[i]);
      }
      return outcome;
    };
    const fail = (message: string, cause?: unknown) => new ToolLoopError(`${mode.name}: ${message}`, { cause, messages, turns, usage });
    const reply = (results: ToolResultBlockParam[]) => {
      if (results.length > 0) messages.push({ role: 'user', content: results });
    };

    for (const superseded of resume?.superseded ?? []) {
      const event = { type: 'decision_superseded' as const, at: Date.now(), ...superseded };
      emitLoop(event);
      mode.emit(event);
    }
    const unanswered = resume ? unansweredCalls(messages) : [];
    if (unanswered.length > 0) {
      const calls = newCalls(turns, false);
      unanswered.forEach((block, index) => calls.add(block, index));
      for (const { result, failed } of resume!.presets) calls.preset(result, failed);
      const outcome = await commit(calls);
      reply(outcome.results);
      if (outcome.limit) return stop(outcome.limit.limit, outcome.limit.notExecuted);
      await run!.checkpoint(messages, spent());
    }

    for (;;) {
      const limit = reachedLimit();
      if (limit) return stop(limit, []);
      if (run?.lost) throw run.lost;

      const turn = turns + 1;
      const sentAt = Date.now();
      emitLoop({ type: 'request', turn, at: sentAt, messageCount: messages.length });
      mode.emit({ type: 'turn_start', turn, at: sentAt, messageCount: messages.length });
      const calls = newCalls(turn, true);
      const blocks: ContentBlock[] = [];
      const turnIds = new Set<string>();
      let turnUsage: Usage | undefined;
      const sink: ResponseSink = {
        began: () => {
          turns += 1;
        },
        usage: (known) => {
          turnUsage = known;
        },
        container: (id) => {
          container = id;
        },
        block: (block, index) => {
          if (block.type === 'tool_use' || block.type === 'server_tool_use') {
            const earlier = seenIds.has(block.id);
            if (earlier || turnIds.has(block.id)) {
              throw new MalformedResponse(`it repeats the tool_use id ${block.id}${earlier ? ', already used earlier in the conversation' : ''}; ids must be unique`);
            }
            turnIds.add(block.id);
          }
          const kept = storable(block);
          // The API sends empty text blocks (before a tool_use, say) but refuses them in a request.
          if (kept.block.type === 'text' && kept.block.text === '') return;
          blocks.push(kept.block);
          if (kept.block.type === 'tool_use') {
            if (kept.tooDeep) calls.add(kept.block, index, TOO_DEEP_MESSAGE);
            else if (kept.unstorable) calls.add(kept.block, index, UNSTORABLE_INPUT_MESSAGE);
            else calls.add(kept.block, index, callerRefusal(kept.block, callers), 'not_executed');
          }
        },
        movedPast: () => calls.release(),
        emit: mode.emit,
      };
      const body = { ...request, ...(container !== undefined && { container }), messages: moving ? moving.mark(messages) : [...messages] };
      const received = mode.streaming
        ? await receiveStream(() => options.client.messages.create({ ...body, stream: true }, { signal }), sink, turn, signal)
        : await receiveWhole(() => options.client.messages.create(body, { signal }), sink, signal);

      if (received.kind === 'request_failed') {
        mode.emit({ type: 'turn_end', turn, stopReason: null, usage: toLoopUsage(turnUsage), at: Date.now() });
        if (signal.aborted) return stop('aborted', []);
        throw fail(`request ${turn} failed: ${describe(received.error)}`, received.error);
      }
      if (received.kind === 'malformed') {
        await calls.abandon(INTERRUPTED_MESSAGE);
        if (turnUsage) addUsage(usage, turnUsage);
        mode.emit({ type: 'turn_end', turn, stopReason: null, usage: toLoopUsage(turnUsage), at: Date.now() });
        throw fail(`response ${turn} is malformed: ${received.problem}. It was not added to the conversation.`);
      }

      // An empty assistant message is refused by the API, so a response without content leaves none.
      if (blocks.length > 0) messages.push({ role: 'assistant', content: blocks });
      for (const id of turnIds) seenIds.add(id);
      if (turnUsage) addUsage(usage, turnUsage);
      const stopReason = received.kind === 'complete' ? received.stopReason : null;
      if (received.kind === 'complete') {
        emitLoop({
          type: 'response',
          turn,
          at: Date.now(),
          durationMs: Date.now() - sentAt,
          stopReason,
          usage: turnUsage!,
        });
      }
      const endTurn = () => mode.emit({ type: 'turn_end', turn, stopReason, usage: toLoopUsage(turnUsage), at: Date.now() });

      if (received.kind === 'aborted') {
        const { results, notExecuted } = await calls.abandon(notExecutedMessage('aborted', limits));
        reply(results);
        endTurn();
        return stop('aborted', notExecuted);
      }
      if (received.kind === 'interrupted') {
        reply((await calls.abandon(INTERRUPTED_MESSAGE)).results);
        endTurn();
        throw fail(`response ${turn} was interrupted: ${describe(received.error)}`, received.error);
      }

      switch (stopReason) {
        case 'tool_use': {
          if (calls.size === 0) {
            endTurn();
            throw fail(`response ${turn} stopped with tool_use but holds no tool_use block.`);
          }
          if (run) {
            // Asked before the batch is saved as running: a run recovered from that save must never
            // find a call that needed approval and run it undecided.
            // Each call was asked as its block completed, so reads before any call that needs approval may have run.
            const check = await calls.approvals();
            for (const result of check.answered) calls.preset(await run.journal(result), false);
            if (check.pending.length === 0) await run.checkpoint(messages, spent());
            else {
              await calls.pause();
              await run.pause(messages, check.pending, spent());
              endTurn();
              mode.emit({ type: 'approval_required', turn, runId: run.runId, pending: structuredClone(check.pending), at: Date.now() });
              const signedState = run.signed();
              return {
                text: approvalNotice(check.pending.map((c) => c.toolName)),
                messages,
                stopReason: 'approval_required',
                turns,
                usage,
                runId: run.runId,
                pending: check.pending,
                ...(signedState && { signedState }),
              };
            }
          }
          const outcome = await commit(calls);
          reply(outcome.results);
          endTurn();
          if (outcome.limit) return stop(outcome.limit.limit, outcome.limit.notExecuted);
          break;
        }
        case 'pause_turn':
          // Sent back as it came so the model continues; its own calls are answered first.
          reply((await calls.abandon(PAUSED_MESSAGE)).results);
          endTurn();
          break;
        case 'max_tokens': {
          const text = finalText(messages);
          const { results } = await calls.abandon(CUT_OFF_MESSAGE);
          reply(results);
          endTurn();
          return finish('max_tokens', results.length > 0 ? incompleteNotice('max_tokens', limits) : text);
        }
        case null:
          reply((await calls.abandon(NO_STOP_REASON_MESSAGE)).results);
          endTurn();
          throw fail(`response ${turn} has no stop_reason, so whether the model finished is unknown.`);
        default: {
          const text = finalText(messages);
          reply((await calls.abandon(endedTurnMessage(stopReason))).results);
          endTurn();
          return finish(stopReason, text);
        }
      }
    }
  }
}

/**
 * What the run's options set, or the error for an option it cannot run with. Nothing here
 * waits, so a resume checks it before it claims the run: a claimed run refused afterwards would
 * stay claimed until its lease lapsed.
 */
export function loopSettings(options: ToolLoopOptions<unknown>, name: EngineMode['name']): LoopSettings {
  const positive = (option: string, value: number) => {
    checkPositiveInteger(`${name}: ${option}`, value);
    return value;
  };
  const limits: ToolLoopLimits = {
    maxTurns: positive('maxTurns', options.maxTurns ?? DEFAULT_MAX_TURNS),
    outputTokens: options.budget?.outputTokens === undefined ? undefined : positive('budget.outputTokens', options.budget.outputTokens),
    ms: options.budget?.ms === undefined ? undefined : positive('budget.ms', options.budget.ms),
  };
  const maxTokens = positive('maxTokens', options.maxTokens ?? DEFAULT_MAX_TOKENS);
  // Before any request: a run that would fail only at its first pause would be orphaned by then.
  if (options.secret !== undefined) checkSecret(options.secret, `${name}: secret`);
  // Checked here, not at the first batch: eager reads start outside `execute`'s own checks.
  if (options.context?.maxConcurrency !== undefined) positive('context.maxConcurrency', options.context.maxConcurrency);
  const policy = options.context?.onWriteFailure;
  if (policy !== undefined && policy !== 'halt' && policy !== 'continue') {
    throw new RangeError(`${name}: context.onWriteFailure must be 'halt' or 'continue', got ${String(policy)}.`);
  }
  if (options.owner !== undefined && (typeof options.owner !== 'string' || options.owner === '' || keyProblem(options.owner))) {
    const problem = typeof options.owner === 'string' ? keyProblem(options.owner) : undefined;
    throw new TypeError(
      `${name}: owner must be a non-empty string (the id of whoever starts or resumes the run)${problem ? ` without NUL or lone surrogates; it ${problem}` : ''}, got ${JSON.stringify(options.owner)}.`,
    );
  }
  if (options.tools.asksApproval && !options.store) {
    throw new TypeError(
      `${name}: the container asks for approval (approval: 'writes' or a tool's approval option), so the run must be able to pause: ` +
        'pass a `store` (InMemoryRunStore, or PostgresRunStore from @toolwright/pg-store).',
    );
  }
  // One array for the whole run: the same tools on every request, as a paused server call needs.
  return { limits, maxTokens, tools: requestTools(options.tools, options.serverTools, name) };
}

function initialMessages(options: ToolLoopOptions<unknown>, name: string): MessageParam[] {
  const messages = [...(options.messages ?? [])];
  if (options.prompt !== undefined) messages.push(...withPrompt(messages.pop(), options.prompt));
  if (messages.length === 0) throw new TypeError(`${name}: give \`messages\` or a \`prompt\`.`);
  const violations = checkTranscript(messages);
  if (violations.length > 0) {
    throw new TypeError(
      `${name}: \`messages\` break the protocol, so the API would refuse them (HTTP 400); fix the history before sending it:\n` +
        violations.map((v) => `messages.${v.messageIndex}: ${v.message}`).join('\n'),
    );
  }
  return messages;
}

/**
 * The last message of the history and the next prompt, as the API takes them. A history may end
 * with a user message: the results of a turn the model ended with no content (an assistant
 * message with none is refused, so none is kept), or a prompt never answered. The prompt then
 * joins that message as a text block after what it holds (after its `tool_result`s, as the
 * protocol wants), so user and assistant turns still alternate. The caller's message is not changed.
 */
function withPrompt(last: MessageParam | undefined, prompt: string): MessageParam[] {
  const next: MessageParam = { role: 'user', content: prompt };
  if (!last) return [next];
  if (last.role !== 'user') return [last, next];
  const before = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  return [{ ...last, content: [...before, { type: 'text', text: prompt }] }];
}

/** The `tool_use` blocks of a final assistant message: the batch a paused run stopped at. */
function unansweredCalls(messages: readonly MessageParam[]): ToolUseBlock[] {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'assistant' || typeof last.content === 'string') return [];
  return last.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

function callIds(messages: readonly MessageParam[]): string[] {
  return messages.flatMap((m) =>
    typeof m.content === 'string' ? [] : m.content.flatMap((b) => (b.type === 'tool_use' || b.type === 'server_tool_use' ? [b.id] : [])),
  );
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

/** A signal aborted when either is, and the function that stops following them. */
function anySignal(...sources: Array<AbortSignal | undefined>): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const releases: Array<() => void> = [];
  for (const source of sources) {
    if (!source) continue;
    if (source.aborted) controller.abort(source.reason);
    const onAbort = () => controller.abort(source.reason);
    source.addEventListener('abort', onAbort);
    releases.push(() => source.removeEventListener('abort', onAbort));
  }
  return { signal: controller.signal, release: () => releases.forEach((r) => r()) };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
