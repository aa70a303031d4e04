import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { checkDecisions, type ApprovalDecision, type ApprovalDecisions, type DecidedCall, type SupersededDecision } from '../approval/decisions';
import type { PendingCall } from '../approval/run-state';
import type { RunStateSecret, SignedRunState } from '../approval/run-state-signature';
import { verifyRunState } from '../approval/run-state-signature';
import { RunStateError } from '../approval/run-state-error';
import type { RunStore } from '../approval/run-store';
import { RunConflictError } from '../approval/run-store-errors';
import { modelMessages, readsAsDenial } from '../execution/messages';
import { describeType } from '../execution/echo';
import { DurableRun, ownRun } from './durable-run';
import { afterFailure, storeFailure } from './store-failure';
import { leaseOf, untilAnswered } from './store-silence';
import { RunStoreError } from '../approval/run-store-errors';
import { keyProblem } from '../approval/storable-key';
import { loopSettings, runEngine, type EngineMode, type EngineResume } from './engine';
import type { ToolLoopOptions, ToolLoopResult } from './loop-options';
import { engineStream, type ToolStream } from './stream-tool-loop';

/**
 * The options of `runToolLoop`, without the conversation (it comes from the store), plus the
 * decisions; `owner` is who resumes, refused unless it is the run's.
 */
export type ResumeToolLoopOptions<TAuth = unknown> = Omit<ToolLoopOptions<TAuth>, 'messages' | 'prompt' | 'store'> & {
  store: RunStore;
  /**
   * One per pending call, `{}` for a run that stopped running without pending calls (a crash). A
   * call an earlier resume recorded a decision for may be left out: it keeps that decision.
   */
  decisions: ApprovalDecisions;
} & (
    | { runId: string; state?: never }
    /** A state that travelled outside the server (`signedState`); refused unless it verifies with `secret`. */
    | { state: SignedRunState; runId?: never }
  );

/**
 * Continues a run that paused (`approval_required`) or stopped halfway (its process crashed):
 * claims it in the store (of concurrent resumes exactly one proceeds; the others get a
 * `RunClaimError` or `RunConflictError`, or a `DecisionError` when they read the run after the
 * first had saved a result or finished), answers the calls the journal already holds with the
 * journaled result, denied calls with "Denied by the user", runs the approved ones in the usual
 * order, and goes on as `runToolLoop`. Refuses, before anything runs: options the loop cannot run
 * with, unknown and finished runs, another `owner` than the run's, decisions that do not match
 * the pending calls (`DecisionError`), and a state whose signature does not verify.
 */
export async function resumeToolLoop<TAuth>(options: ResumeToolLoopOptions<TAuth>): Promise<ToolLoopResult> {
  const plan = await claimRun(options, 'resumeToolLoop');
  return runEngine(options, { name: 'resumeToolLoop', streaming: false, emit: () => undefined }, plan);
}

/**
 * `resumeToolLoop` over the streaming Messages API, as `streamToolLoop` is `runToolLoop`: the
 * same options, refusals and result, with the events as they happen. It resolves with the
 * stream once the run is claimed; every refusal rejects it instead, before any event and before
 * anything runs, so a server can still answer a refusal with an HTTP status. From then on the
 * stream is `streamToolLoop`'s: a failure ends it with `done` (`stopReason: 'error'`) and
 * rejects `result`, and `abort()` stops the run.
 */
export async function streamResumeToolLoop<TAuth>(options: ResumeToolLoopOptions<TAuth>): Promise<ToolStream> {
  const plan = await claimRun(options, 'streamResumeToolLoop');
  return engineStream('streamResumeToolLoop', (mode) => runEngine(options, mode, plan));
}

async function claimRun(options: ResumeToolLoopOptions<unknown>, name: EngineMode['name']): Promise<EngineResume> {
  // Checked before the claim: a run refused for its options must not stay claimed.
  const settings = loopSettings(options, name);
  const { store } = options;
  // From JavaScript, anything may come as the id: refused as an option, not sent to the store.
  const givenId: unknown = options.runId;
  if (!options.state && typeof givenId !== 'string') {
    throw new TypeError(`${name}: runId must be the string runToolLoop returned as runId, got ${describeType(givenId)}.`);
  }
  const runId = options.state ? await adoptSignedState(store, options.state, options.secret, name, options.signal) : options.runId;
  // An id no store can hold names no run: refused as unknown, never sent to the store.
  const found = keyProblem(runId) ? undefined : await storeCall(runId, 'load', () => store.load(runId), options.signal, store);
  // The decisions are checked against the pending calls of this run, never another's.
  const loaded = found && ownRun(runId, 'load', found);
  const decided = checkDecisions(runId, loaded?.state, options.decisions, options.owner);
  const claimed = await storeCall(runId, 'claim', () => store.claim(runId, { expectedRevision: loaded!.revision }), options.signal, store);
  // A claim answered with another run's state is refused too; the claim the store took lapses with its lease.
  const run = DurableRun.claimed(store, runId, claimed, options.secret);
  try {
    const journaled = await run.journaled();
    const pending = standingDecisions(decided, journaled);
    // Recorded before anything of this attempt is journaled, so every journaled result of a pending
    // call has its decision beside it in the store (a save on every resume: resumes are rare, and a
    // save that changes nothing is harmless).
    await run.recordDecisions(pending);
    const presets: EngineResume['presets'] = [];
    // A denial answers a call as a failed write (the calls after it halt), on every attempt: a denial
    // journaled by an attempt that died is still one. Which journaled result is a denial is read
    // from the decision recorded with it, never from its text (an approved call's own error may
    // say anything). Only a result journaled by a build that recorded no decisions is told by its
    // text: for a call waiting for approval, that text is the denial unless its tool, once
    // approved, answered that very text.
    const byId = new Map(pending.map((call) => [call.toolUseId, call]));
    for (const result of journaled.values()) {
      const call = byId.get(result.tool_use_id);
      const failed = call !== undefined && (call.decision ? !call.decision.approve : readsAsDenial(result));
      presets.push({ result, failed });
    }
    for (const { toolUseId, decision } of pending) {
      if (!decision || decision.approve || journaled.has(toolUseId)) continue;
      const denial: ToolResultBlockParam = { type: 'tool_result', tool_use_id: toolUseId, content: modelMessages.denied(decision.reason), is_error: true };
      presets.push({ result: await run.journal(denial), failed: true });
    }
    return { run, presets, settings, superseded: supersededDecisions(decided, journaled) };
  } catch (error) {
    // Claimed, nothing run: released as it was claimed, so the retry can claim it again at once.
    const after = await run.interrupt(claimed.state.messages, claimed.state.used);
    throw error instanceof RunStoreError ? afterFailure(error, after) : error;
  }
}

/**
 * The pending calls with the decision each stands under. A call with a journaled result keeps the
 * decision recorded when it was journaled (the journaled answer stands, whatever a retry decides;
 * none is recorded by a build that predates recording them). Any other call takes this attempt's.
 */
function standingDecisions(decided: readonly DecidedCall[], journaled: ReadonlyMap<string, unknown>): PendingCall[] {
  return decided.map(({ call, decision }) =>
    journaled.has(call.toolUseId) ? call : { ...call, decision: { approve: decision.approve, ...(decision.reason !== undefined && { reason: decision.reason }) } },
  );
}

/**
 * This attempt's decisions that differ from the one a call's journaled answer was given under, for
 * the app to tell whoever decided (an approval that came too late to undo a journaled denial, a
 * denial too late to stop a write that ran). A call journaled by a build that recorded no
 * decisions has nothing to compare with and is left out.
 */
function supersededDecisions(decided: readonly DecidedCall[], journaled: ReadonlyMap<string, unknown>): SupersededDecision[] {
  const superseded: SupersededDecision[] = [];
  for (const { call, decision } of decided) {
    const recorded = call.decision;
    if (recorded && journaled.has(call.toolUseId) && !sameDecision(recorded, decision)) {
      superseded.push({ toolUseId: call.toolUseId, requested: decision, recorded });
    }
  }
  return superseded;
}

/** A denial's reason is part of it (the model read the first one); an approval's is not shown to anyone. */
function sameDecision(a: ApprovalDecision, b: ApprovalDecision): boolean {
  return a.approve === b.approve && (a.approve || a.reason === b.reason);
}

/** A store call before the run is held, given up as the held run's are (within the lease, or the grace after an abort). */
async function storeCall<T>(runId: string, operation: 'load' | 'claim', op: () => Promise<T>, signal: AbortSignal | undefined, store: RunStore): Promise<T> {
  try {
    return await untilAnswered(operation, op, signal, leaseOf(store));
  } catch (error) {
    throw storeFailure(runId, operation, error);
  }
}

/**
 * The run id of a verified `signed` state, saved in the store if it is not there yet (a server
 * that keeps the paused state with the client still keeps claims and the journal in its store).
 */
async function adoptSignedState(store: RunStore, signed: SignedRunState, secret: RunStateSecret | undefined, name: string, signal: AbortSignal | undefined): Promise<string> {
  if (secret === undefined) {
    throw new RunStateError('signature', `${name}: a \`state\` from outside the server is resumed only with the \`secret\` it was signed with.`);
  }
  const state = verifyRunState(signed, secret);
  try {
    await untilAnswered('create', () => store.create(state), signal, leaseOf(store));
  } catch (error) {
    // Already there (an earlier resume of the same state took it in): resumed from the store.
    if (error instanceof RunConflictError && error.problem === 'exists') return state.runId;
    // Any other failure is the store's, reported as every store failure is: typed, with the run id
    // (the store's own answers, a malformed state say, stay what they are).
    const failure = storeFailure(state.runId, 'create', error);
    if (!(failure instanceof RunStoreError)) throw failure;
    throw new RunStoreError(
      'store_failed',
      state.runId,
      'create',
      false,
      [],
      `Run ${JSON.stringify(state.runId)} was not resumed: its store failed on create, taking in the signed state (${error instanceof Error ? error.message : String(error)}). ` +
        'Nothing ran and nothing was claimed: resume with the same state again once the store answers.',
      { cause: error },
    );
  }
  return state.runId;
}
