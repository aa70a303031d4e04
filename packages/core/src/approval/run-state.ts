import { randomUUID } from 'node:crypto';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ToolEffect } from '../decorators/tool-options';
import { RunStateError } from './run-state-error';
import { keyProblem } from './storable-key';

/**
 * The layout this build writes; a saved state carries it as `version`. Version 2 added `owner`,
 * and later the optional `decision` of a pending call: a build that predates it ignores it and
 * tells a journaled denial by its text, as it always did, so it is not a layout of its own.
 * Version 1 states are still read (as runs without an owner), so runs paused before an upgrade
 * can be resumed; a build that knows only version 1 refuses version 2 rather than ignore an owner.
 */
export const RUN_STATE_VERSION = 2;

/** Layouts this build reads: the current one, and version 1 (the same without `owner`). */
const READABLE_VERSIONS: readonly unknown[] = [1, RUN_STATE_VERSION];

/**
 * `pending`: waiting for decisions. `running`: a process is executing it (after a claim).
 * `finished`: nothing is left to decide or run; resume refuses it.
 */
export type RunStatus = 'pending' | 'running' | 'finished';

/** A call a person must decide on: what the model asked for, after validation and guard. */
export interface PendingCall {
  toolUseId: string;
  toolName: string;
  input: Record<string, unknown>;
  effect: ToolEffect;
  /**
   * What was decided, recorded by the resume that claimed the run before it journaled any result
   * of the call: a later attempt that finds the call's result in the journal reads from here, not
   * from its text, whether that result is a denial. Absent while the call waits for its decision.
   */
  decision?: ApprovalDecision;
}

/** A person's answer for one pending call; `reason` is shown to the model when a call is denied. */
export interface ApprovalDecision {
  approve: boolean;
  reason?: string;
}

/** Tokens summed over the run so far (the same fields as the loop's usage). */
export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}

/** What the run has spent of its limits, so a resumed run keeps counting instead of starting over. */
export interface RunBudgetsUsed {
  turns: number;
  usage: RunUsage;
  elapsedMs: number;
}

/** A paused (or running, or finished) run as saved in a store: plain JSON, versioned. */
export interface RunState {
  version: typeof RUN_STATE_VERSION;
  runId: string;
  /** Who started the run, as the app names them (`owner` of the loop options); resume refuses anyone else. */
  owner?: string;
  status: RunStatus;
  messages: MessageParam[];
  pending: PendingCall[];
  used: RunBudgetsUsed;
}

export interface CreateRunStateInput {
  /** A random UUID when absent. */
  runId?: string;
  /** None when absent: anyone may resume the run. */
  owner?: string;
  /** `'pending'` by default. */
  status?: RunStatus;
  messages: MessageParam[];
  pending: PendingCall[];
  /** Nothing spent when absent. */
  used?: RunBudgetsUsed;
}

/** A new run state, checked like one read back from a store. */
export function createRunState(input: CreateRunStateInput): RunState {
  const state: RunState = {
    version: RUN_STATE_VERSION,
    runId: input.runId ?? randomUUID(),
    ...(input.owner !== undefined && { owner: input.owner }),
    status: input.status ?? 'pending',
    messages: input.messages,
    pending: input.pending,
    used: input.used ?? {
      turns: 0,
      usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      elapsedMs: 0,
    },
  };
  return checkRunState(state);
}

/**
 * `value` as a `RunState`, or a `RunStateError` naming the first field that is wrong. A state
 * is data from outside the process (a database row, a client's request), so every field is checked.
 * A version 1 state comes back as the current version: a copy, `value` is left as it was.
 */
export function checkRunState(value: unknown): RunState {
  if (!isObject(value)) throw malformed('the run state', 'must be an object');
  if (!READABLE_VERSIONS.includes(value.version)) {
    throw new RunStateError(
      'version',
      `Run state version ${JSON.stringify(value.version)} is not supported: this build of toolwright reads versions ${READABLE_VERSIONS.join(' and ')}. ` +
        'Resume the run with the version that saved it, or start a new run.',
    );
  }
  if (typeof value.runId !== 'string' || value.runId === '') throw malformed('runId', 'must be a non-empty string');
  checkKey(value.runId, 'runId');
  if (value.version === 1) {
    if (value.owner !== undefined) throw malformed('owner', 'is not a field of version 1');
  } else if (value.owner !== undefined && (typeof value.owner !== 'string' || value.owner === '')) {
    throw malformed('owner', 'must be a non-empty string when present');
  }
  if (typeof value.owner === 'string') checkKey(value.owner, 'owner');
  if (value.status !== 'pending' && value.status !== 'running' && value.status !== 'finished') {
    throw malformed('status', `must be 'pending', 'running' or 'finished', got ${JSON.stringify(value.status)}`);
  }
  checkMessages(value.messages);
  checkPending(value.pending, value.status);
  checkUsed(value.used);
  return (value.version === RUN_STATE_VERSION ? value : { ...value, version: RUN_STATE_VERSION }) as unknown as RunState;
}

function checkMessages(messages: unknown): void {
  if (!Array.isArray(messages)) throw malformed('messages', 'must be an array');
  messages.forEach((message, i) => {
    if (!isObject(message)) throw malformed(`messages[${i}]`, 'must be an object');
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw malformed(`messages[${i}].role`, `must be 'user' or 'assistant', got ${JSON.stringify(message.role)}`);
    }
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      throw malformed(`messages[${i}].content`, 'must be a string or an array of content blocks');
    }
    if (Array.isArray(message.content)) message.content.forEach((block, j) => checkBlock(block, `messages[${i}].content[${j}]`));
  });
}

/** What the loop reads of a stored block: its type, and the ids that pair calls with their results. */
function checkBlock(block: unknown, at: string): void {
  if (!isObject(block) || typeof block.type !== 'string') throw malformed(at, 'must be a content block (an object with a string type)');
  if (block.type === 'tool_use' || block.type === 'server_tool_use') {
    if (typeof block.id !== 'string' || block.id === '') throw malformed(`${at}.id`, 'must be a non-empty string');
    checkKey(block.id, `${at}.id`);
  }
  if (block.type === 'tool_result' && typeof block.tool_use_id !== 'string') throw malformed(`${at}.tool_use_id`, 'must be a string');
}

function checkPending(pending: unknown, status: RunStatus): void {
  if (!Array.isArray(pending)) throw malformed('pending', 'must be an array');
  const seen = new Set<string>();
  pending.forEach((call, i) => {
    const at = `pending[${i}]`;
    if (!isObject(call)) throw malformed(at, 'must be an object');
    if (typeof call.toolUseId !== 'string' || call.toolUseId === '') throw malformed(`${at}.toolUseId`, 'must be a non-empty string');
    checkKey(call.toolUseId, `${at}.toolUseId`);
    if (seen.has(call.toolUseId)) throw malformed(`${at}.toolUseId`, `repeats ${JSON.stringify(call.toolUseId)}; each pending call has its own id`);
    seen.add(call.toolUseId);
    if (typeof call.toolName !== 'string' || call.toolName === '') throw malformed(`${at}.toolName`, 'must be a non-empty string');
    if (!isObject(call.input)) throw malformed(`${at}.input`, 'must be a JSON object');
    if (call.effect !== 'read' && call.effect !== 'write') {
      throw malformed(`${at}.effect`, `must be 'read' or 'write', got ${JSON.stringify(call.effect)}`);
    }
    if (call.decision !== undefined) checkDecision(call.decision, `${at}.decision`);
  });
  if (status === 'pending' && pending.length === 0) throw malformed('pending', "is empty, but a 'pending' run waits for at least one decision");
  if (status === 'finished' && pending.length > 0) throw malformed('pending', "must be empty in a 'finished' run");
}

function checkDecision(decision: unknown, at: string): void {
  if (!isObject(decision)) throw malformed(at, 'must be an object when present');
  if (typeof decision.approve !== 'boolean') throw malformed(`${at}.approve`, `must be a boolean, got ${JSON.stringify(decision.approve)}`);
  if (decision.reason !== undefined && typeof decision.reason !== 'string') throw malformed(`${at}.reason`, 'must be a string when present');
}

function checkUsed(used: unknown): void {
  if (!isObject(used)) throw malformed('used', 'must be an object');
  checkCount(used.turns, 'used.turns');
  checkCount(used.elapsedMs, 'used.elapsedMs');
  if (!isObject(used.usage)) throw malformed('used.usage', 'must be an object');
  for (const key of ['inputTokens', 'outputTokens', 'cacheCreationInputTokens', 'cacheReadInputTokens']) {
    checkCount(used.usage[key], `used.usage.${key}`);
  }
}

function checkCount(value: unknown, at: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw malformed(at, `must be a number >= 0, got ${JSON.stringify(value)}`);
}

/** Ids and owners are keys: refused when a store could not hold them as they are (`keyProblem`). */
function checkKey(value: string, at: string): void {
  const problem = keyProblem(value);
  if (problem) throw malformed(at, problem);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(at: string, problem: string): RunStateError {
  return new RunStateError('malformed', `Run state is not valid: ${at} ${problem}.`);
}
