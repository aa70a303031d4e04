// The ordering rules of the Messages API that a tool loop can break, checked over a message
// list. The scripted test server answers 400 when one breaks, as the API does, and
// `runToolLoop` refuses input that already breaks one. Wording follows the API's own errors.

/** A content block as far as the ordering rules care. */
export interface TranscriptBlock {
  type: string;
  id?: unknown;
  tool_use_id?: unknown;
  /** Who made a `tool_use`: the model (`direct`) or code it runs in code execution. */
  caller?: { type?: unknown } | null;
}

/** A message as far as the ordering rules care: `MessageParam`s and parsed JSON both fit. */
export interface TranscriptMessage {
  role: string;
  content?: string | readonly TranscriptBlock[] | null;
}

export type TranscriptRule =
  | 'non-empty'
  | 'non-empty-content'
  | 'starts-with-user'
  | 'roles-alternate'
  | 'unique-tool-use-ids'
  | 'results-follow-immediately'
  | 'results-match-calls'
  | 'one-result-per-call'
  | 'results-first'
  | 'results-in-call-order'
  | 'only-results-after-unfinished-server-call'
  | 'only-results-for-programmatic-calls'
  | 'tools-defined';

export interface TranscriptViolation {
  rule: TranscriptRule;
  /** Index in the message list of the message that breaks the rule; -1 for the list itself. */
  messageIndex: number;
  message: string;
}

/**
 * Every way `messages` breaks the ordering rules of the Messages API: each `tool_use` answered
 * by one `tool_result` in the very next (user) message, results first and in call order, ids
 * matching, roles alternating. An empty list means the conversation can be sent.
 */
export function checkTranscript(messages: readonly TranscriptMessage[]): TranscriptViolation[] {
  const violations: TranscriptViolation[] = [];
  const report = (rule: TranscriptRule, messageIndex: number, message: string) =>
    violations.push({ rule, messageIndex, message });

  if (messages.length === 0) {
    report('non-empty', -1, 'at least one message is required.');
    return violations;
  }
  const firstTurn = messages.findIndex((m) => m.role !== 'system');
  if (firstTurn >= 0 && messages[firstTurn].role !== 'user') {
    report('starts-with-user', firstTurn, 'the first message must use the "user" role.');
  }

  const seenCallIds = new Map<string, number>();
  let previousRole: string | undefined;
  messages.forEach((message, index) => {
    // The API accepts an empty final assistant message (a prefill), and nothing else empty.
    const isFinalAssistant = message.role === 'assistant' && index === messages.length - 1;
    if (!isFinalAssistant && (message.content === '' || (Array.isArray(message.content) && message.content.length === 0))) {
      report('non-empty-content', index, 'all messages must have non-empty content except for the optional final assistant message.');
    }
    if (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'system') {
      report('roles-alternate', index, `unexpected role "${message.role}".`);
    }
    // Consecutive assistant messages are allowed: a paused turn (`pause_turn`) is continued by
    // sending it back, and the API joins the continuation to it.
    if (message.role === 'user' && previousRole === 'user') {
      report('roles-alternate', index, 'two user messages in a row; user and assistant turns must alternate.');
    }
    if (message.role !== 'system') previousRole = message.role;

    for (const block of blocksOf(message)) {
      if (!isCall(block) || typeof block.id !== 'string') continue;
      const first = seenCallIds.get(block.id);
      if (first !== undefined) {
        report(
          'unique-tool-use-ids',
          index,
          `\`tool_use\` ids must be unique: ${block.id} is repeated (first in messages.${first}). Each call needs its own id; ` +
            'a history holding the same id twice cannot be sent as it is.',
        );
      }
      seenCallIds.set(block.id, first ?? index);
    }
    if (message.role === 'assistant') checkCallsAnswered(messages, index, report);
    if (message.role === 'user' || blocksOf(message).some((b) => b.type === 'tool_result')) {
      checkResults(messages, index, report);
    }
  });
  return violations;
}

/** The parts of a request the checker reads. */
export interface TranscriptRequest {
  messages: readonly TranscriptMessage[];
  tools?: readonly unknown[] | null;
}

/** `checkTranscript`, plus the rule that involves the rest of the request: tools must be defined. */
export function checkRequest(request: TranscriptRequest): TranscriptViolation[] {
  const violations = checkTranscript(request.messages);
  const usesTools = request.messages.some((m) => blocksOf(m).some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
  if (usesTools && !request.tools?.length) {
    violations.push({
      rule: 'tools-defined',
      messageIndex: -1,
      message: 'requests which include `tool_use` or `tool_result` blocks must define tools.',
    });
  }
  return violations;
}

type Report = (rule: TranscriptRule, messageIndex: number, message: string) => void;

function checkCallsAnswered(messages: readonly TranscriptMessage[], index: number, report: Report): void {
  const callIds = clientCallIds(messages[index]);
  if (callIds.length === 0) return;
  const next = messages[index + 1];
  const answered = new Set(next?.role === 'user' ? resultIds(next) : []);
  const unanswered = callIds.filter((id) => !answered.has(id));
  if (unanswered.length > 0) {
    report(
      'results-follow-immediately',
      index,
      `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. ` +
        'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
  }
}

function checkResults(messages: readonly TranscriptMessage[], index: number, report: Report): void {
  const message = messages[index];
  const blocks = blocksOf(message);
  const ids = resultIds(message);
  const previous = messages[index - 1];
  const calls = previous?.role === 'assistant' && message.role === 'user' ? clientCallIds(previous) : [];

  const unexpected = ids.filter((id) => !calls.includes(id));
  if (unexpected.length > 0) {
    report(
      'results-match-calls',
      index,
      `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. ` +
        'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
  }
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) {
    report('one-result-per-call', index, `more than one \`tool_result\` for: ${[...new Set(repeated)].join(', ')}.`);
  }
  const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
  const lastResult = blocks.map((b) => b.type).lastIndexOf('tool_result');
  if (firstOther >= 0 && firstOther < lastResult) {
    report('results-first', index, '`tool_result` blocks must come first in the message; other content only after them.');
  }
  const order = ids.filter((id) => calls.includes(id)).map((id) => calls.indexOf(id));
  if (order.some((position, i) => i > 0 && position < order[i - 1])) {
    report('results-in-call-order', index, '`tool_result` blocks must follow the order of the `tool_use` blocks they answer.');
  }
  const programmatic = previous?.role === 'assistant' && blocksOf(previous).some((b) => b.type === 'tool_use' && b.caller?.type !== undefined && b.caller.type !== 'direct');
  if (message.role === 'user' && firstOther >= 0 && programmatic) {
    report(
      'only-results-for-programmatic-calls',
      index,
      'the previous assistant turn has tool calls made from code execution, so this message may hold only `tool_result` blocks.',
    );
  } else if (message.role === 'user' && firstOther >= 0 && hasUnfinishedServerCall(messages, index)) {
    report(
      'only-results-after-unfinished-server-call',
      index,
      'the previous assistant turn has a server tool call without its result, so this message may hold only `tool_result` blocks.',
    );
  }
}

/** Whether the assistant turn right before `index` (consecutive assistant messages) has a server call without its result. */
function hasUnfinishedServerCall(messages: readonly TranscriptMessage[], index: number): boolean {
  const calls = new Set<unknown>();
  const results = new Set<unknown>();
  for (let i = index - 1; i >= 0 && messages[i].role === 'assistant'; i--) {
    for (const block of blocksOf(messages[i])) {
      if (isServerCall(block)) calls.add(block.id);
      if (isServerResult(block)) results.add(block.tool_use_id);
    }
  }
  return [...calls].some((id) => !results.has(id));
}

function blocksOf(message: TranscriptMessage): readonly TranscriptBlock[] {
  return Array.isArray(message.content) ? message.content : [];
}

function clientCallIds(message: TranscriptMessage): string[] {
  return blocksOf(message)
    .filter((b) => b.type === 'tool_use')
    .map((b) => String(b.id));
}

function resultIds(message: TranscriptMessage): string[] {
  return blocksOf(message)
    .filter((b) => b.type === 'tool_result')
    .map((b) => String(b.tool_use_id));
}

function isCall(block: TranscriptBlock): boolean {
  return block.type === 'tool_use' || isServerCall(block);
}

function isServerCall(block: TranscriptBlock): boolean {
  return block.type === 'server_tool_use' || block.type === 'mcp_tool_use';
}

/** `web_search_tool_result`, `code_execution_tool_result`, ...: everything but the client's `tool_result`. */
function isServerResult(block: TranscriptBlock): boolean {
  return block.type !== 'tool_result' && block.type.endsWith('_tool_result');
}
