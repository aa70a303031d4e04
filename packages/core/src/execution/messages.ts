// Every text the model reads when a call does not succeed, in one place. They are short on
// purpose: each one costs tokens on every retry.

export const modelMessages = {
  unknownTool: (name: string, available: readonly string[]) =>
    `Unknown tool "${name}". Available tools: ${available.join(', ') || '(none)'}.`,
  notAnObject: (got: string) => `Invalid input: expected a JSON object, got ${got}.`,
  forbiddenKey: (path: string) => `Invalid input: key "${path}" is not allowed.`,
  tooDeep: (maxDepth: number) => `Invalid input: nested deeper than ${maxDepth} levels.`,
  invalidInput: (tool: string, lines: readonly string[]) =>
    `Invalid input for ${tool}:\n${lines.join('\n')}\nFix the input and try again.`,
  notAllowed: (tool: string) => `Not allowed: ${tool} refused this call.`,
  internal: (tool: string) => `Internal error in ${tool}. It was logged; do not retry with the same input.`,
  notExecuted: (name: string, id: string) => `Not executed: an earlier call in this batch (${name}, ${id}) failed.`,
  timedOut: (ms: number, isWrite: boolean) =>
    `Timed out after ${ms} ms.` + (isWrite ? ' This write may or may not have taken effect; check before retrying.' : ''),
  cancelled: (wasRunning: boolean, isWrite: boolean) =>
    wasRunning && isWrite ? 'Cancelled while running; whether this write took effect is unknown.' : 'Cancelled.',
  truncated: (left: number) => `\n[truncated: ${left} more characters not shown]`,
};
