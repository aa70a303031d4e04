import { echo } from './echo';

// Every text the model reads when a call does not succeed, in one place. They are short on
// purpose: each one costs tokens on every retry. Whatever the model sent (a name, an id, a path)
// goes through `echo`, so no message grows with the size of what the model wrote.

const DENIED_WITH_REASON = 'Denied by the user: ';
const count = (n: number) => n.toLocaleString('en-US');

export const modelMessages = {
  unknownTool: (name: unknown, available: readonly string[]) =>
    typeof name === 'string'
      ? `Unknown tool "${echo(name)}". Available tools: ${available.join(', ') || '(none)'}.`
      : `Invalid tool_use: its name is ${echo(name)}, not a string. Available tools: ${available.join(', ') || '(none)'}.`,
  invalidId: (id: unknown) => `Invalid tool_use: its id is ${echo(id)}, not a string; the call was not run.`,
  duplicateId: (id: unknown, times: number) =>
    `Not executed: tool_use id "${echo(id)}" appears ${times} times in this message; ids must be unique, so no call of it was run.`,
  notAnObject: (got: string) => `Invalid input: expected a JSON object, got ${got}.`,
  forbiddenKey: (path: string) => `Invalid input: key "${echo(path)}" is not allowed.`,
  notJson: (path: string, got: string) => `Invalid input: "${echo(path)}" is ${got}, not a JSON value.`,
  tooDeep: (maxDepth: number) => `Invalid input: nested deeper than ${count(maxDepth)} levels.`,
  tooManyBytes: (maxBytes: number) => `Invalid input: larger than ${count(maxBytes)} bytes of JSON; send less data.`,
  tooManyKeys: (maxKeys: number) => `Invalid input: more than ${count(maxKeys)} keys in all; send fewer fields.`,
  arrayTooLong: (path: string, max: number) => `Invalid input: "${echo(path)}" has more than ${count(max)} elements.`,
  stringTooLong: (path: string, max: number) => `Invalid input: "${echo(path)}" is longer than ${count(max)} characters.`,
  invalidInput: (tool: string, lines: readonly string[]) =>
    `Invalid input for ${tool}:\n${lines.join('\n')}\nFix the input and try again.`,
  notAllowed: (tool: string) => `Not allowed: ${tool} refused this call.`,
  internal: (tool: unknown) => `Internal error in ${echo(tool)}. It was logged; do not retry with the same input.`,
  notExecuted: (name: unknown, id: unknown) => `Not executed: an earlier call in this batch (${echo(name)}, ${echo(id)}) failed.`,
  /** A person's reason is theirs, not the model's: it is not echoed. */
  denied: (reason: string | undefined) => (reason ? `${DENIED_WITH_REASON}${reason}` : 'Denied by the user.'),
  timedOut: (ms: number, isWrite: boolean) =>
    `Timed out after ${ms} ms.` + (isWrite ? ' This write may or may not have taken effect; check before retrying.' : ''),
  cancelled: (wasRunning: boolean, isWrite: boolean) =>
    wasRunning && isWrite ? 'Cancelled while running; whether this write took effect is unknown.' : 'Cancelled.',
  truncated: (left: number) => `\n[truncated: ${left} more characters not shown]`,
  blockOmitted: (type: string, chars: number, budget: number) =>
    `[${type} not shown: ${count(chars)} characters, over the ${count(budget)} left for this result]`,
  blocksOmitted: (n: number, max: number) => `[${n} more images or documents not shown: at most ${max} per result]`,
};

/**
 * Whether `result` reads as a person's denial (`modelMessages.denied`). Only meaningful for a
 * call that waited for approval: a tool of its own could answer the same text.
 */
export function readsAsDenial(result: { content?: unknown; is_error?: boolean }): boolean {
  const { content } = result;
  return result.is_error === true && typeof content === 'string' && (content === modelMessages.denied(undefined) || content.startsWith(DENIED_WITH_REASON));
}
