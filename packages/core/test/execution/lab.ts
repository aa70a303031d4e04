import { IsString, Matches } from 'class-validator';
import {
  Ctx,
  Input,
  Param,
  Tool,
  ToolContainer,
  ToolError,
  defineToolManifest,
  type ExecutionDefaults,
  type ToolContext,
  type ToolEvent,
  type ToolLogger,
} from '@toolwright/core';

// A laboratory for the executor: fake tools whose every behaviour is scripted per tool_use id,
// and which record, on one monotonic counter, when their code (guard or method) ran. The counter
// orders instants without relying on wall-clock time, so overlap checks are exact.

/** What a tool method does when called. `ms` is virtual time (jest fake timers). */
export type Behaviour =
  | { kind: 'ok'; ms: number; sync: boolean; value: OkValue }
  | { kind: 'tool_error'; ms: number; sync: boolean; blocks: boolean }
  | { kind: 'throw'; ms: number; sync: boolean; error: Thrown }
  | { kind: 'unserializable'; ms: number; what: 'circular' | 'bigint' | 'function' | 'throwing_toJSON' }
  | { kind: 'hang' }
  /** Waits until the latch of its segment opens: proof that reads of one segment overlap. */
  | { kind: 'barrier'; segment: number }
  /** Aborts the batch's signal from inside its own synchronous part, then waits. */
  | { kind: 'abort_batch'; ms: number }
  /** Throws or returns something built to break whoever inspects it. */
  | { kind: 'hostile'; ms: number; sync: boolean; what: Hostile };

/** Values whose inspection throws, that only look like a ToolError, or that are far too big. */
export type Hostile =
  | 'throw_proxy'
  | 'throw_revoked_proxy'
  | 'throw_content_getter'
  | 'throw_fake_tool_error'
  | 'throw_to_primitive'
  | 'tool_error_huge'
  | 'tool_error_malformed'
  | 'return_proxy'
  | 'return_getter'
  | 'return_malformed_blocks'
  | 'return_huge'
  | 'return_images';

export const HOSTILE: readonly Hostile[] = [
  'throw_proxy',
  'throw_revoked_proxy',
  'throw_content_getter',
  'throw_fake_tool_error',
  'throw_to_primitive',
  'tool_error_huge',
  'tool_error_malformed',
  'return_proxy',
  'return_getter',
  'return_malformed_blocks',
  'return_huge',
  'return_images',
];

export type OkValue = 'string' | 'object' | 'undefined' | 'blocks' | 'long';
export type Thrown = 'error' | 'undefined' | 'null' | 'string' | 'number' | 'object' | 'error_like';
/** `allow_late` answers yes only after the tool's timeout, ignoring its signal, as a slow permission check would. */
export type GuardPlan = 'allow' | 'refuse' | 'throw' | 'allow_async' | 'refuse_async' | 'allow_late';

export interface CallPlan {
  behaviour: Behaviour;
  guard: GuardPlan;
}

/** What the lab saw of one call's own code. Instants come from `Lab.tick()`. */
export interface Trace {
  first: number;
  end?: number;
  methodStarted?: number;
  sawAbort: boolean;
  /** The method received something other than a validated key: the boundary leaked. */
  receivedInvalid: boolean;
  /** The method returned a value a model can be sent: the call's work is done. */
  completed?: boolean;
}

interface Latch {
  target: number;
  arrived: number;
  inFlight: number;
  maxInFlight: number;
  open(): void;
  opened: Promise<void>;
}

export const KEY_PATTERN = /^k\d{1,3}$/;
export const TOOL_TIMEOUT_MS = 10;
export const BARRIER_TIMEOUT_MS = 60_000;
export const MAX_RESULT_CHARS = 100;
export const LONG_RESULT = 'x'.repeat(300);
/** One megabyte, built once: hostile sizes without the cost of building them per call. */
export const HUGE = 'h'.repeat(1_000_000);
export const IMAGES_RETURNED = 25;

export class Lab {
  private seq = 0;
  readonly plans = new Map<string, CallPlan>();
  readonly traces = new Map<string, Trace>();
  readonly events: Array<{ seq: number; event: ToolEvent }> = [];
  readonly logged: Array<{ level: 'error' | 'warn'; message: string }> = [];
  readonly controller = new AbortController();
  private readonly latches = new Map<number, Latch>();
  inFlightReads = 0;
  maxInFlightReads = 0;
  /** Set when the batch signal is aborted: the instant and the virtual time. */
  abortedAt?: { seq: number; now: number };
  /** Abort the batch when the n-th call_start event (1-based) is emitted. */
  abortOnCallStart?: number;
  /** The logger records, then throws, as a logger whose transport is down. */
  loggerThrows = false;
  /** The listener records, then throws. */
  onEventThrows = false;

  readonly logger: ToolLogger = {
    error: (message, ...details) => this.log('error', message, details),
    warn: (message, ...details) => this.log('warn', message, details),
  };

  readonly onEvent = (event: ToolEvent) => {
    this.events.push({ seq: this.tick(), event });
    if (event.type === 'call_start' && this.countEvents('call_start') === this.abortOnCallStart) this.abort();
    if (this.onEventThrows) throw new Error('dashboard is down');
  };

  private log(level: 'error' | 'warn', message: string, details: unknown[]): void {
    this.logged.push({ level, message });
    if (this.loggerThrows) throw new Error(`cannot log ${details.length} details: disk full`);
  }

  tick(): number {
    return ++this.seq;
  }

  abort(): void {
    if (this.controller.signal.aborted) return;
    this.abortedAt = { seq: this.tick(), now: Date.now() };
    this.controller.abort(new Error('the user went away'));
  }

  setLatch(segment: number, target: number): void {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.latches.set(segment, { target, arrived: 0, inFlight: 0, maxInFlight: 0, open, opened });
  }

  latch(segment: number): Latch | undefined {
    return this.latches.get(segment);
  }

  countEvents(type: ToolEvent['type']): number {
    return this.events.filter((e) => e.event.type === type).length;
  }

  guard(ctx: ToolContext<Lab>): boolean | Promise<boolean> {
    const trace = this.touch(ctx.toolUseId);
    trace.end = this.tick();
    switch (this.plan(ctx).guard) {
      case 'allow':
        return true;
      case 'refuse':
        return false;
      case 'allow_async':
        return Promise.resolve(true);
      case 'refuse_async':
        return Promise.resolve(false);
      case 'allow_late':
        return new Promise((resolve) => setTimeout(() => resolve(true), TOOL_TIMEOUT_MS * 2));
      case 'throw':
        throw new Error('guard exploded');
    }
  }

  perform(ctx: ToolContext<Lab>, key: unknown, effect: 'read' | 'write'): unknown {
    const trace = this.touch(ctx.toolUseId);
    trace.methodStarted = this.tick();
    trace.end = undefined;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) trace.receivedInvalid = true;
    if (effect === 'read') this.maxInFlightReads = Math.max(this.maxInFlightReads, ++this.inFlightReads);
    // Listeners run synchronously inside abort(), before the executor answers the call: the end
    // instant is therefore recorded before anything after this call can start.
    ctx.signal.addEventListener('abort', () => {
      trace.sawAbort = true;
      this.finish(trace, effect);
    });
    const done = <T>(value: T): T => {
      this.finish(trace, effect);
      return value;
    };
    const completed = <T>(value: T): T => {
      trace.completed = true;
      return done(value);
    };
    const behaviour = this.plan(ctx).behaviour;
    switch (behaviour.kind) {
      case 'ok':
        if (behaviour.sync) return completed(okValue(behaviour.value));
        return sleep(behaviour.ms, ctx.signal).then(() => completed(okValue(behaviour.value)));
      case 'tool_error':
        if (behaviour.sync) throw done(toolError(behaviour.blocks));
        return sleep(behaviour.ms, ctx.signal).then(() => Promise.reject(done(toolError(behaviour.blocks))));
      case 'throw':
        if (behaviour.sync) throw done(thrown(behaviour.error));
        return sleep(behaviour.ms, ctx.signal).then(() => Promise.reject(done(thrown(behaviour.error))));
      case 'unserializable':
        return sleep(behaviour.ms, ctx.signal).then(() => done(unserializable(behaviour.what)));
      case 'hang':
        return new Promise(() => {});
      case 'barrier':
        return this.waitAtLatch(behaviour.segment, ctx.signal).then(() => done('passed'));
      case 'abort_batch':
        this.abort();
        return sleep(behaviour.ms, ctx.signal).then(() => done('finished anyway'));
      case 'hostile': {
        const act = () => {
          const value = hostile(behaviour.what);
          if (behaviour.what.startsWith('return_')) return value;
          throw value;
        };
        const settle = () => {
          try {
            const value = act();
            return behaviour.what === 'return_huge' || behaviour.what === 'return_images' ? completed(value) : done(value);
          } catch (error) {
            done(undefined);
            throw error;
          }
        };
        if (behaviour.sync) return settle();
        return sleep(behaviour.ms, ctx.signal).then(settle);
      }
    }
  }

  private async waitAtLatch(segment: number, signal: AbortSignal): Promise<void> {
    const latch = this.latches.get(segment)!;
    latch.arrived++;
    latch.maxInFlight = Math.max(latch.maxInFlight, ++latch.inFlight);
    if (latch.arrived >= latch.target) latch.open();
    try {
      await Promise.race([latch.opened, whenAborted(signal)]);
    } finally {
      latch.inFlight--;
    }
  }

  private touch(id: string): Trace {
    let trace = this.traces.get(id);
    if (!trace) {
      trace = { first: this.tick(), sawAbort: false, receivedInvalid: false };
      this.traces.set(id, trace);
    }
    return trace;
  }

  private finish(trace: Trace, effect: 'read' | 'write'): void {
    if (trace.end !== undefined) return;
    trace.end = this.tick();
    if (effect === 'read') this.inFlightReads--;
  }

  private plan(ctx: ToolContext<Lab>): CallPlan {
    const plan = this.plans.get(ctx.toolUseId);
    if (!plan) throw new Error(`the lab has no plan for ${ctx.toolUseId}`);
    return plan;
  }
}

/** Resolves after `ms` of (fake) time; rejects as soon as `signal` aborts, like a well-behaved tool. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
}

function okValue(value: OkValue): unknown {
  switch (value) {
    case 'string':
      return 'done';
    case 'object':
      return { status: 'done', n: 1 };
    case 'undefined':
      return undefined;
    case 'blocks':
      return [{ type: 'text', text: 'done' }];
    case 'long':
      return LONG_RESULT;
  }
}

function toolError(blocks: boolean): ToolError {
  return new ToolError(blocks ? [{ type: 'text', text: 'nothing found' }] : 'nothing found');
}

function thrown(kind: Thrown): unknown {
  switch (kind) {
    case 'error':
      return new Error('database on fire');
    case 'undefined':
      return undefined;
    case 'null':
      return null;
    case 'string':
      return 'a bare string';
    case 'number':
      return 42;
    case 'object':
      return { code: 'E_WEIRD' };
    case 'error_like':
      return { name: 'ToolError', message: 'looks like a ToolError, is not one', content: 'pretend' };
  }
}

/** A Proxy every one of whose traps throws: `instanceof`, property reads, `Array.isArray` on the revoked one. */
function trap(revoked: boolean): object {
  const explode = () => {
    throw new Error('a trap went off');
  };
  const handler: ProxyHandler<object> = {
    get: explode,
    has: explode,
    ownKeys: explode,
    getPrototypeOf: explode,
    getOwnPropertyDescriptor: explode,
    apply: explode,
  };
  if (!revoked) return new Proxy({}, handler);
  const { proxy, revoke } = Proxy.revocable([], handler);
  revoke();
  return proxy;
}

function hostile(what: Hostile): unknown {
  switch (what) {
    case 'throw_proxy':
    case 'return_proxy':
      return trap(false);
    case 'throw_revoked_proxy':
      return trap(true);
    case 'throw_content_getter':
      return Object.create(ToolError.prototype, {
        content: {
          get() {
            throw new Error('content is not readable');
          },
        },
      });
    case 'throw_fake_tool_error':
      return Object.assign(Object.create(ToolError.prototype), { name: 'ToolError', message: 'fake', content: 'pretend' });
    case 'throw_to_primitive':
      return {
        toString() {
          throw new Error('no string');
        },
        [Symbol.toPrimitive]() {
          throw new Error('no primitive');
        },
      };
    case 'tool_error_huge':
      return new ToolError(HUGE);
    case 'tool_error_malformed':
      return new ToolError([{ type: 'text', text: 42 }] as never);
    case 'return_getter':
      return {
        get status() {
          throw new Error('getter exploded');
        },
      };
    case 'return_malformed_blocks':
      return [{ type: 'image', source: 'not a source' }];
    case 'return_huge':
      return HUGE;
    case 'return_images':
      return Array.from({ length: IMAGES_RETURNED }, () => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }));
  }
}

function unserializable(what: 'circular' | 'bigint' | 'function' | 'throwing_toJSON'): unknown {
  switch (what) {
    case 'circular': {
      const node: Record<string, unknown> = { name: 'loop' };
      node.self = node;
      return node;
    }
    case 'bigint':
      return { total: BigInt(10) };
    case 'function':
      return () => 'not data';
    case 'throwing_toJSON':
      return {
        toJSON() {
          throw new Error('cannot serialize');
        },
      };
  }
}

// The tools, hand-wired the way tools-codegen would emit them.

export class KeyInput {
  @IsString()
  @Matches(KEY_PATTERN)
  key!: string;
}

const labGuard = (ctx: ToolContext<Lab>) => ctx.auth.guard(ctx);

export class ReadTools {
  @Tool({ name: 'read_a', effect: 'read', timeoutMs: TOOL_TIMEOUT_MS })
  readA(@Param() key: string, @Ctx() ctx: ToolContext<Lab>) {
    return ctx.auth.perform(ctx, key, 'read');
  }

  @Tool({ name: 'read_b', effect: 'read', timeoutMs: TOOL_TIMEOUT_MS, guard: labGuard })
  readB(@Input() input: KeyInput, @Ctx() ctx: ToolContext<Lab>) {
    return ctx.auth.perform(ctx, input instanceof KeyInput ? input.key : undefined, 'read');
  }

  @Tool({ name: 'read_wait', effect: 'read', timeoutMs: BARRIER_TIMEOUT_MS })
  readWait(@Param() key: string, @Ctx() ctx: ToolContext<Lab>) {
    return ctx.auth.perform(ctx, key, 'read');
  }
}

export class WriteTools {
  @Tool({ name: 'write_a', effect: 'write', timeoutMs: TOOL_TIMEOUT_MS })
  writeA(@Param() key: string, @Ctx() ctx: ToolContext<Lab>) {
    return ctx.auth.perform(ctx, key, 'write');
  }

  /** No `effect`: the default, `'write'`, applies; no `timeoutMs`: the container default applies. */
  @Tool({ name: 'write_b', guard: labGuard })
  writeB(@Input() input: KeyInput, @Ctx() ctx: ToolContext<Lab>) {
    return ctx.auth.perform(ctx, input instanceof KeyInput ? input.key : undefined, 'write');
  }
}

const keySchema = {
  type: 'object' as const,
  properties: { key: { type: 'string', description: 'A key such as k12.', pattern: KEY_PATTERN.source } },
  required: ['key'],
  additionalProperties: false,
};

const definition = (name: string) => ({
  name,
  description: `Fake tool ${name} of the executor tests. It does what its test scripted. It touches nothing real.`,
  input_schema: keySchema,
});

export const labManifest = defineToolManifest([
  {
    provider: ReadTools,
    method: 'readA',
    definition: definition('read_a'),
    effect: 'read',
    inputClass: KeyInput,
    parameters: [{ kind: 'param', property: 'key' }, { kind: 'ctx' }],
  },
  {
    provider: ReadTools,
    method: 'readB',
    definition: definition('read_b'),
    effect: 'read',
    inputClass: KeyInput,
    parameters: [{ kind: 'input' }, { kind: 'ctx' }],
  },
  {
    provider: ReadTools,
    method: 'readWait',
    definition: definition('read_wait'),
    effect: 'read',
    inputClass: KeyInput,
    parameters: [{ kind: 'param', property: 'key' }, { kind: 'ctx' }],
  },
  {
    provider: WriteTools,
    method: 'writeA',
    definition: definition('write_a'),
    effect: 'write',
    inputClass: KeyInput,
    parameters: [{ kind: 'param', property: 'key' }, { kind: 'ctx' }],
  },
  {
    provider: WriteTools,
    method: 'writeB',
    definition: definition('write_b'),
    effect: 'write',
    inputClass: KeyInput,
    parameters: [{ kind: 'input' }, { kind: 'ctx' }],
  },
]);

export const READ_TOOLS: ReadonlySet<string> = new Set(['read_a', 'read_b', 'read_wait']);
export const GUARDED_TOOLS: ReadonlySet<string> = new Set(['read_b', 'write_b']);

export function labContainer(lab: Lab, defaults: Partial<ExecutionDefaults> = {}): ToolContainer<Lab> {
  return new ToolContainer<Lab>({
    manifest: labManifest,
    providers: [new ReadTools(), new WriteTools()],
    logger: lab.logger,
    defaults: { timeoutMs: TOOL_TIMEOUT_MS, maxResultChars: MAX_RESULT_CHARS, ...defaults },
  });
}

/** Lets every pending promise callback run: one real macrotask turn. */
export function flush(): Promise<void> {
  return new Promise((resolve) => realSetImmediate(resolve));
}

const realSetImmediate = setImmediate;

/**
 * Runs fake time forward, one timer at a time with every promise settled in between, until
 * `promise` settles. Fails if it is still pending when no timer is left: nothing could ever
 * settle it.
 */
export async function drive<T>(promise: Promise<T>): Promise<{ value: T; settledAt: number }> {
  let settled: { value: T; settledAt: number } | undefined;
  let failure: { error: unknown } | undefined;
  promise.then(
    (value) => (settled = { value, settledAt: Date.now() }),
    (error: unknown) => (failure = { error }),
  );
  for (let step = 0; step < 10_000; step++) {
    await flush();
    if (failure) throw failure.error;
    if (settled) return settled;
    if (jest.getTimerCount() === 0) throw new Error('execute is pending and no timer is left to settle it');
    jest.advanceTimersToNextTimer();
  }
  throw new Error('execute did not settle within 10,000 timer steps');
}

/** Runs every timer left, letting promises settle in between, until none is left. */
export async function drain(): Promise<void> {
  for (let step = 0; step < 10_000; step++) {
    await flush();
    if (jest.getTimerCount() === 0) return;
    jest.advanceTimersToNextTimer();
  }
  throw new Error('timers kept coming after 10,000 steps');
}
