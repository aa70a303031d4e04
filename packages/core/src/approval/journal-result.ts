import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
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
