import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { RunStateError } from './run-state-error';
import { keyProblem } from './storable-key';

/**
 * `value` if it is a `tool_result` block with an id, the only thing a result journal keeps, for
 * the run `runId`. Its content is kept as it is, whatever characters it holds; the ids are keys
 * and must be storable (`keyProblem`).
 */
export function checkJournalResult(value: ToolResultBlockParam, runId: string): ToolResultBlockParam {
  if (typeof value !== 'object' || value === null || value.type !== 'tool_result' || typeof value.tool_use_id !== 'string' || value.tool_use_id === '') {
    throw new TypeError('recordResult takes a tool_result block with a non-empty tool_use_id, as tools.execute() returns.');
  }
  const problem = keyProblem(value.tool_use_id);
  if (problem) throw new TypeError(`recordResult: tool_use_id ${JSON.stringify(value.tool_use_id)} ${problem}; ids with it cannot be stored.`);
  if (typeof runId !== 'string' || runId === '' || keyProblem(runId)) {
    throw new TypeError(`recordResult: run id ${JSON.stringify(runId)} ${typeof runId === 'string' && runId !== '' ? keyProblem(runId) : 'must be a non-empty string'}; no run has it.`);
  }
  return value;
}

/**
 * A journal entry read back from a store, kept under `toolUseId` for the run `runId`: data from
 * outside the process, so it must be the `tool_result` of that very call. A row that is not (a
 * corrupt or hand-edited row, another call's result, a store with a bug) would answer the wrong
 * call, or leave the journaled call to run again: refused as `RunStateError('malformed')`, naming
 * the run and the call. `value` is the entry as parsed, or its JSON text.
 */
export function checkJournaledEntry(value: unknown, runId: string, toolUseId: string): ToolResultBlockParam {
  let entry = value;
  if (typeof value === 'string') {
    try {
      entry = JSON.parse(value);
    } catch {
      entry = undefined;
    }
  }
  const result = entry as ToolResultBlockParam | null | undefined;
  const what =
    typeof result !== 'object' || result === null || result.type !== 'tool_result' || typeof result.tool_use_id !== 'string'
      ? 'is not a tool_result block'
      : result.tool_use_id !== toolUseId
        ? `holds the result of another call, ${JSON.stringify(result.tool_use_id)}`
        : undefined;
  if (what === undefined) return result!;
  throw new RunStateError(
    'malformed',
    `Run ${JSON.stringify(runId)}: the journal entry of call ${JSON.stringify(toolUseId)} ${what}, so the run cannot tell whether that call ran. ` +
      'The run stops here, before any further call; fix or remove that entry in the store (a result the call really returned, under its own tool_use_id), then resume it.',
  );
}
