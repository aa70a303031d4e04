import fc from 'fast-check';
import type { ToolResultBlockParam, ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { CallOutcome, WriteFailurePolicy } from '@toolwright/core';
import {
  GUARDED_TOOLS,
  HOSTILE,
  HUGE,
  IMAGES_RETURNED,
  KEY_PATTERN,
  LONG_RESULT,
  Lab,
  MAX_RESULT_CHARS,
  READ_TOOLS,
  TOOL_TIMEOUT_MS,
  drain,
  drive,
  labContainer,
  type Behaviour,
  type GuardPlan,
  type Hostile,
} from './lab';

export interface CallSpec {
  name: string;
  input: unknown;
  /** Whether `input` is exactly what the tool's schema accepts; the oracle for validation. */
  valid: boolean;
  behaviour: Behaviour;
  guard: GuardPlan;
  textBefore: boolean;
}

export type AbortTrigger = { at: 'before' } | { at: 'time'; ms: number } | { at: 'call_start'; n: number };

export interface Batch {
  calls: CallSpec[];
  defaultConcurrency: number;
  maxConcurrency?: number;
  defaultPolicy?: WriteFailurePolicy;
  policy?: WriteFailurePolicy;
  abort?: AbortTrigger;
  /** The application's logger throws on every line. */
  loggerThrows?: boolean;
  /** Every onEvent listener throws. */
  onEventThrows?: boolean;
  /** The id of each call's tool_use, when some repeat (`duplicateIds`); otherwise `idOf(i)`. */
  ids?: string[];
}

const KNOWN = ['read_a', 'read_b', 'write_a', 'write_b'] as const;
/** Names no tool has, some of them keys every plain object inherits. */
const UNKNOWN = ['nope', 'READ_A', 'read_a ', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'drop_all'];

export const mayWrite = (name: string) => !READ_TOOLS.has(name);

const nested = (depth: number): unknown => (depth === 0 ? 'bottom' : { a: nested(depth - 1) });

/** Inputs the boundary must refuse. Built fresh on every draw: nothing may share them across runs. */
const invalidInput: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<Array<() => unknown>>(
    () => ({}),
    () => ({ key: 12 }),
    () => ({ key: null }),
    () => ({ key: ['k1'] }),
    () => ({ key: { k: 1 } }),
    () => ({ key: true }),
    () => ({ key: 'K1' }),
    () => ({ key: 'k1234' }),
    () => ({ key: '' }),
    () => ({ key: 'k1', admin: true }),
    () => JSON.parse('{"key":"k1","__proto__":{"polluted":"yes"}}'),
    () => JSON.parse('{"__proto__":{"polluted":"yes"}}'),
    () => JSON.parse('{"key":"k1","meta":{"__proto__":{"polluted":"yes"}}}'),
    () => JSON.parse('{"key":"k1","list":[{"__proto__":{"polluted":"yes"}}]}'),
    () => ({ key: 'k'.repeat(100_000) }),
    () => ({ key: 'k1', note: 'x'.repeat(100_000) }),
    () => ({ key: nested(40) }),
    () => ({ key: 'k1', deep: nested(12) }),
    () => null,
    () => undefined,
    () => 'k1',
    () => 42,
    () => ['k1'],
  ).map((make) => make()),
  fc.string({ maxLength: 8 }).filter((s) => !KEY_PATTERN.test(s)).map((key) => ({ key })),
  fc.tuple(fc.integer({ min: 0, max: 999 }), fc.string({ minLength: 1, maxLength: 6 }), fc.anything())
    .filter(([, extra]) => extra !== 'key')
    .map(([n, extra, value]) => ({ key: `k${n}`, [extra]: value })),
);

const validInput = fc.integer({ min: 0, max: 999 }).map((n) => ({ key: `k${n}` }));

const ms = fc.integer({ min: 0, max: 3 });

const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('ok' as const), ms, sync: fc.boolean(), value: fc.constantFrom('string', 'object', 'undefined', 'blocks', 'long' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tool_error' as const), ms, sync: fc.boolean(), blocks: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('throw' as const),
      ms,
      sync: fc.boolean(),
      error: fc.constantFrom('error', 'undefined', 'null', 'string', 'number', 'object', 'error_like' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unserializable' as const), ms, what: fc.constantFrom('circular', 'bigint', 'function', 'throwing_toJSON' as const) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'hang' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('hostile' as const), ms, sync: fc.boolean(), what: fc.constantFrom(...HOSTILE) }) },
);

const guard: fc.Arbitrary<GuardPlan> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('allow', 'allow_async' as const) },
  { weight: 1, arbitrary: fc.constantFrom('refuse', 'refuse_async', 'throw', 'allow_late' as const) },
);

function callSpec(behaviours: fc.Arbitrary<Behaviour>): fc.Arbitrary<CallSpec> {
  return fc
    .record({
      name: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...KNOWN) }, { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN) }),
      valid: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      behaviour: behaviours,
      guard,
      textBefore: fc.boolean(),
    })
    .chain((spec) => (spec.valid ? validInput : invalidInput).map((input) => ({ ...spec, input })));
}

/** A call to the latch tool: valid, unguarded, its behaviour set per segment by `runBatch`. */
const barrierCall: fc.Arbitrary<CallSpec> = fc.record({
  name: fc.constant('read_wait'),
  input: validInput,
  valid: fc.constant(true),
  behaviour: fc.constant({ kind: 'barrier' as const, segment: -1 }),
  guard: fc.constant('allow' as const),
  textBefore: fc.boolean(),
});

const policy = fc.constantFrom<WriteFailurePolicy>('halt', 'continue');

export function batches(options: { minConcurrency?: number; withBarriers?: boolean; policy?: WriteFailurePolicy; abort?: boolean } = {}): fc.Arbitrary<Batch> {
  const concurrency = fc.integer({ min: options.minConcurrency ?? 1, max: 8 });
  const behaviours = options.abort
    ? fc.oneof({ weight: 9, arbitrary: behaviour }, { weight: 1, arbitrary: ms.map((m) => ({ kind: 'abort_batch' as const, ms: m })) })
    : behaviour;
  const call = options.withBarriers
    ? fc.oneof({ weight: 2, arbitrary: callSpec(behaviours) }, { weight: 1, arbitrary: barrierCall })
    : callSpec(behaviours);
  return fc.record(
    {
      calls: fc.array(call, { maxLength: 20 }),
      defaultConcurrency: concurrency,
      maxConcurrency: fc.option(concurrency, { nil: undefined }),
      defaultPolicy: options.policy ? fc.constant(undefined) : fc.option(policy, { nil: undefined }),
      policy: options.policy ? fc.constant(options.policy) : fc.option(policy, { nil: undefined }),
      abort: options.abort
        ? fc.oneof(
            fc.constant({ at: 'before' as const }),
            fc.record({ at: fc.constant('time' as const), ms: fc.integer({ min: 0, max: 40 }) }),
            fc.record({ at: fc.constant('call_start' as const), n: fc.integer({ min: 1, max: 20 }) }),
          )
        : fc.constant(undefined),
      loggerThrows: fc.boolean(),
      onEventThrows: fc.boolean(),
    },
    { requiredKeys: ['calls', 'defaultConcurrency'] },
  );
}

/**
 * Batches of two calls or more whose tool_use ids repeat: each call takes one of n - 1 ids, so at
 * least one is used twice (a pair, or many, anywhere in the message, with text blocks between).
 */
export function duplicateIdBatches(): fc.Arbitrary<Batch> {
  return batches()
    .filter((batch) => batch.calls.length >= 2)
    .chain((batch) =>
      fc
        .array(fc.nat({ max: batch.calls.length - 2 }), { minLength: batch.calls.length, maxLength: batch.calls.length })
        .map((picks) => ({ ...batch, ids: picks.map(idOf) })),
    );
}

/** The first id (in order of first use) that more than one call has, with how many: written apart from the executor's. */
export function repeatedId(ids: readonly string[]): { id: string; times: number } | undefined {
  for (const id of ids) {
    const times = ids.filter((other) => other === id).length;
    if (times > 1) return { id, times };
  }
  return undefined;
}

export const idOf = (index: number) => `toolu_${String(index).padStart(2, '0')}`;
export const effectiveConcurrency = (batch: Batch) => batch.maxConcurrency ?? batch.defaultConcurrency;
export const effectivePolicy = (batch: Batch) => batch.policy ?? batch.defaultPolicy ?? 'halt';

/** `[start, end)` of each segment, cut the way the issue specifies, independently of the executor. */
export function expectedSegments(calls: readonly CallSpec[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  calls.forEach((call, i) => {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === i && !mayWrite(call.name) && !mayWrite(calls[i - 1].name)) last[1] = i + 1;
    else ranges.push([i, i + 1]);
  });
  return ranges;
}

export interface BatchRun {
  lab: Lab;
  results: ToolResultBlockParam[];
  settledAt: number;
  /** How each call ended, from the events: call_end's outcome, or the skip. */
  outcomes: Array<CallOutcome | undefined>;
  terminalSeq: Array<number | undefined>;
  startSeq: Array<number | undefined>;
  /** Ids of calls whose code was still running when execute answered. */
  runningAtSettle: string[];
  /** Events emitted when execute answered; later events would mean work outlived the batch. */
  eventsAtSettle: number;
  /** The batch's abort, when it came before execute answered. */
  abortedAt?: { seq: number; now: number };
}

export async function runBatch(batch: Batch): Promise<BatchRun> {
  jest.clearAllTimers();
  const lab = new Lab();
  const content: ContentBlockParam[] = [];
  const segments = expectedSegments(batch.calls);
  segments.forEach(([start, end], segment) => {
    const waiting = batch.calls.slice(start, end).filter((c) => c.name === 'read_wait').length;
    if (waiting > 0) lab.setLatch(segment, Math.min(effectiveConcurrency(batch), waiting));
  });
  batch.calls.forEach((call, i) => {
    const segment = segments.findIndex(([start, end]) => start <= i && i < end);
    const behaviour: Behaviour = call.behaviour.kind === 'barrier' ? { kind: 'barrier', segment } : call.behaviour;
    lab.plans.set(idOf(i), { behaviour, guard: call.guard });
    if (call.textBefore) content.push({ type: 'text', text: `calling ${call.name}` });
    content.push({ type: 'tool_use', id: batch.ids?.[i] ?? idOf(i), name: call.name, input: call.input });
  });

  const container = labContainer(lab, {
    maxConcurrency: batch.defaultConcurrency,
    ...(batch.defaultPolicy ? { onWriteFailure: batch.defaultPolicy } : {}),
  });
  if (batch.abort?.at === 'before') lab.abort();
  if (batch.abort?.at === 'time') setTimeout(() => lab.abort(), batch.abort.ms);
  if (batch.abort?.at === 'call_start') lab.abortOnCallStart = batch.abort.n;
  lab.loggerThrows = batch.loggerThrows ?? false;
  lab.onEventThrows = batch.onEventThrows ?? false;

  const { value: results, settledAt } = await drive(
    container.execute(content, {
      auth: lab,
      signal: lab.controller.signal,
      onEvent: lab.onEvent,
      ...(batch.maxConcurrency !== undefined ? { maxConcurrency: batch.maxConcurrency } : {}),
      ...(batch.policy ? { onWriteFailure: batch.policy } : {}),
    }),
  );

  const ids = batch.calls.map((_, i) => idOf(i));
  const runningAtSettle = ids.filter((id) => lab.traces.has(id) && lab.traces.get(id)!.end === undefined);
  const eventsAtSettle = lab.events.length;
  const abortedAt = lab.abortedAt;
  // Abandoned work (a timed-out or cancelled call) may still wake up: let it, and record what it does.
  await drain();

  const outcomes = ids.map((id) => {
    for (const { event } of lab.events) {
      if (event.toolUseId !== id) continue;
      if (event.type === 'call_end') return event.outcome;
      if (event.type === 'call_skipped') return event.reason === 'halted' ? 'not_executed' : 'cancelled';
    }
    return undefined;
  });
  const seqOf = (id: string, types: string[]) => lab.events.find((e) => e.event.toolUseId === id && types.includes(e.event.type))?.seq;
  return {
    lab,
    results,
    settledAt,
    outcomes,
    terminalSeq: ids.map((id) => seqOf(id, ['call_end', 'call_skipped'])),
    startSeq: ids.map((id) => seqOf(id, ['call_start'])),
    runningAtSettle,
    eventsAtSettle,
    abortedAt,
  };
}

/** What each call must be answered, computed from its script alone: a reference model of the executor. */
export function expectedAnswers(batch: Batch): Array<{ outcome: CallOutcome; content?: ToolResultBlockParam['content'] }> {
  let failedWrite: { name: string; id: string } | undefined;
  return batch.calls.map((call, i) => {
    if (failedWrite) {
      return { outcome: 'not_executed', content: `Not executed: an earlier call in this batch (${failedWrite.name}, ${failedWrite.id}) failed.` };
    }
    const answer = expectedAnswer(call);
    if (effectivePolicy(batch) === 'halt' && mayWrite(call.name) && answer.outcome !== 'ok') failedWrite = { name: call.name, id: idOf(i) };
    return answer;
  });
}

const internal = (name: string) => ({
  outcome: 'internal_error' as const,
  content: `Internal error in ${name}. It was logged; do not retry with the same input.`,
});

function expectedAnswer(call: CallSpec): { outcome: CallOutcome; content?: ToolResultBlockParam['content'] } {
  if (!KNOWN.includes(call.name as (typeof KNOWN)[number])) {
    return { outcome: 'unknown_tool', content: `Unknown tool "${call.name}". Available tools: read_a, read_b, read_wait, write_a, write_b.` };
  }
  if (!call.valid) return { outcome: 'invalid_input' };
  const timeout = {
    outcome: 'timeout' as const,
    content: `Timed out after ${TOOL_TIMEOUT_MS} ms.` + (mayWrite(call.name) ? ' This write may or may not have taken effect; check before retrying.' : ''),
  };
  if (GUARDED_TOOLS.has(call.name)) {
    if (call.guard === 'refuse' || call.guard === 'refuse_async') return { outcome: 'refused', content: `Not allowed: ${call.name} refused this call.` };
    if (call.guard === 'throw') return internal(call.name);
    if (call.guard === 'allow_late') return timeout;
  }
  const b = call.behaviour;
  switch (b.kind) {
    case 'ok':
      return {
        outcome: 'ok',
        content: {
          string: 'done',
          object: '{"status":"done","n":1}',
          undefined: undefined,
          blocks: [{ type: 'text' as const, text: 'done' }],
          long: `${LONG_RESULT.slice(0, MAX_RESULT_CHARS)}\n[truncated: ${LONG_RESULT.length - MAX_RESULT_CHARS} more characters not shown]`,
        }[b.value],
      };
    case 'tool_error':
      return { outcome: 'tool_error', content: b.blocks ? [{ type: 'text', text: 'nothing found' }] : 'nothing found' };
    case 'throw':
    case 'unserializable':
      return internal(call.name);
    case 'hang':
      return timeout;
    case 'hostile':
      return hostileAnswer(call.name, b.what);
    case 'barrier':
    case 'abort_batch':
      throw new Error(`the reference model does not cover ${b.kind}`);
  }
}

const cut = (text: string) => `${text.slice(0, MAX_RESULT_CHARS)}\n[truncated: ${text.length - MAX_RESULT_CHARS} more characters not shown]`;

/** A text as the lab's container answers it: cut at its `maxResultChars`. */
export const asAnswered = (text: string) => (text.length > MAX_RESULT_CHARS ? cut(text) : text);

function hostileAnswer(name: string, what: Hostile): { outcome: CallOutcome; content?: ToolResultBlockParam['content'] } {
  switch (what) {
    case 'tool_error_huge':
      return { outcome: 'tool_error', content: cut(HUGE) };
    case 'return_huge':
      return { outcome: 'ok', content: cut(HUGE) };
    case 'return_images': {
      const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'AAAA' } };
      return {
        outcome: 'ok',
        content: [
          ...Array.from({ length: 20 }, () => image),
          { type: 'text', text: `[${IMAGES_RETURNED - 20} more images or documents not shown: at most 20 per result]` },
        ],
      };
    }
    default:
      return internal(name);
  }
}
