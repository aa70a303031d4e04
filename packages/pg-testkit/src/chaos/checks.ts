import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { RunState } from '@toolwright/core';
import { checkTranscript } from '@toolwright/core/testing';
import { keyOf } from './protocol';

/** What the database holds at the end, as the checks need it. */
export interface FinalState {
  runs: RunState[];
  /** The pid of the worker behind each side-effect row, per tool_use id, in the order they were written. */
  effects: Map<string, number[]>;
}

export interface Figures {
  runs: number;
  keysStartedTwice: number;
  writes: number;
  /** Writes denied, or skipped after a denied one in their batch. */
  denied: number;
  effectRows: number;
  duplicatesInWindow: number;
  /** A second run by the process that took the run over from a live worker that stalled past the lease. */
  duplicatesAfterLostClaim: number;
  duplicatesOutsideWindow: number;
}

export interface Check {
  name: string;
  problems: string[];
}

/**
 * The guarantees, over the final database: every run finished with a valid transcript, every
 * key's run there, every approved write's side effect exactly once (a second one only for an id
 * the driver saw killed in the window between its write and its journal row), no denied write
 * run, and no side effect under an id the transcripts do not hold (a re-run has the same
 * `ctx.toolUseId`).
 */
export function checkFinalState(
  state: FinalState,
  keys: number,
  windowKills: ReadonlyMap<string, number>,
  lostClaimPids: ReadonlySet<number>,
): { checks: Check[]; figures: Figures } {
  const unfinished: string[] = [];
  const invalid: string[] = [];
  const lost: string[] = [];
  const ranDenied: string[] = [];
  const outside: string[] = [];
  const failed: string[] = [];
  const idsInTranscripts = new Set<string>();
  const runsPerKey = new Map<number, number>();
  let writes = 0;
  let denied = 0;
  let inWindow = 0;
  let afterLostClaim = 0;
  let outsideCount = 0;

  for (const run of state.runs) {
    const key = keyOf(run.messages[0]?.content);
    runsPerKey.set(key, (runsPerKey.get(key) ?? 0) + 1);
    if (run.status !== 'finished') unfinished.push(`${run.runId} (key ${key}) is ${run.status}`);
    const violations = checkTranscript(run.messages);
    if (violations.length > 0) invalid.push(`${run.runId}: ${violations.map((v) => v.message).join('; ')}`);
    const answers = answersById(run.messages);
    for (const use of toolUses(run.messages)) {
      idsInTranscripts.add(use.id);
      const answered = answers.get(use.id) ?? [];
      if (answered.length !== 1) invalid.push(`${run.runId}: ${use.id} answered ${answered.length} times`);
      if (use.name === 'look_up') continue;
      const pids = state.effects.get(use.id) ?? [];
      const ran = pids.length;
      const answer = typeof answered[0]?.content === 'string' ? answered[0].content : '';
      // Denied, or not run because a call before it in the batch failed (a denied transfer): it must not have run.
      if (answer.startsWith('Denied by the user') || (answered[0]?.is_error && answer.startsWith('Not executed:'))) {
        denied += 1;
        if (ran > 0) ranDenied.push(`${use.id} was answered "${answer}" and ran ${ran} times`);
        continue;
      }
      writes += 1;
      if (answered[0]?.is_error) failed.push(`${use.id} was answered with an error: ${JSON.stringify(answered[0].content)}`);
      if (ran === 0) lost.push(`${use.id} (${use.name} of key ${key}) was answered but its side effect is not there`);
      const extra = Math.max(0, ran - 1);
      const covered = Math.min(extra, windowKills.get(use.id) ?? 0);
      inWindow += covered;
      // Every run but the last by a worker whose claim was lost while it ran the call.
      const lostClaims = Math.min(extra - covered, pids.slice(0, -1).filter((pid) => lostClaimPids.has(pid)).length);
      afterLostClaim += lostClaims;
      if (extra > covered + lostClaims) {
        outsideCount += extra - covered - lostClaims;
        outside.push(`${use.id} ran ${ran} times (pids ${pids.join(', ')}); killed in its write-to-journal window ${windowKills.get(use.id) ?? 0} times`);
      }
    }
  }
  const stray = [...state.effects.keys()].filter((id) => !idsInTranscripts.has(id)).map((id) => `a side effect under ${id}, which no transcript holds`);
  const missingKeys = Array.from({ length: keys }, (_, k) => k).filter((k) => !runsPerKey.has(k)).map((k) => `no run for key ${k}`);

  const checks: Check[] = [
    { name: 'every run finished', problems: unfinished },
    { name: 'every run is there (nothing lost)', problems: missingKeys },
    { name: 'every transcript valid, every tool_use answered once', problems: invalid },
    { name: 'every approved write ran (its side effect is there)', problems: lost },
    { name: 'no duplicate side effect a kill in the write-to-journal window or a lost claim does not explain', problems: outside },
    { name: 'no denied or skipped write ran', problems: ranDenied },
    { name: 're-runs kept their ctx.toolUseId (no side effect under an unknown id)', problems: stray },
    { name: 'no approved write answered with an error', problems: failed },
  ];
  const figures: Figures = {
    runs: state.runs.length,
    keysStartedTwice: [...runsPerKey.values()].filter((n) => n > 1).length,
    writes,
    denied,
    effectRows: [...state.effects.values()].reduce((a, b) => a + b.length, 0),
    duplicatesInWindow: inWindow,
    duplicatesAfterLostClaim: afterLostClaim,
    duplicatesOutsideWindow: outsideCount,
  };
  return { checks, figures };
}

function toolUses(messages: readonly MessageParam[]): Array<{ id: string; name: string }> {
  return messages.flatMap((m) =>
    m.role === 'assistant' && typeof m.content !== 'string' ? m.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name }] : [])) : [],
  );
}

function answersById(messages: readonly MessageParam[]): Map<string, ToolResultBlockParam[]> {
  const answers = new Map<string, ToolResultBlockParam[]>();
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_result') answers.set(block.tool_use_id, [...(answers.get(block.tool_use_id) ?? []), block]);
    }
  }
  return answers;
}
