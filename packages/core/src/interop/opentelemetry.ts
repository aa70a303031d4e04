import type * as OTel from '@opentelemetry/api';
import type { CallResult, TraceCarrier } from '../execution/call.types';

/**
 * Spans of tool calls, when `@opentelemetry/api` is installed. The tracer is typed by shape, not
 * imported: core's declarations must not name a package its users may not have.
 */
export interface TelemetryOptions {
  /** Where `execute_tool` spans go; by default the `@toolwright/core` tracer of the global provider. */
  tracer?: { startSpan(name: string, options?: object, context?: object): object };
  /** Put each call's input on its span as `gen_ai.tool.call.arguments`. Off by default: inputs may hold personal data. */
  recordArguments?: boolean;
  /** Put what the model reads on the span as `gen_ai.tool.call.result`. Off by default, for the same reason. */
  recordResults?: boolean;
}

/** What a span says about one call, read before the call runs. */
export interface TracedCall {
  name: string;
  id: string;
  input: unknown;
  description?: string;
  /** The caller's trace: the span is its child instead of the active context's. */
  parent?: TraceCarrier;
}

/** Runs one call, inside its span when tracing is on; resolves with what `run` resolves with. */
export interface CallTracing {
  (call: TracedCall, run: () => Promise<CallResult>): Promise<CallResult>;
  /** Whether a span could record now; when not, a caller may run the call without it. */
  live(): boolean;
}

/** What `callTracing` returns when tracing is off or unavailable. */
const untraced: CallTracing = Object.assign((_call: TracedCall, run: () => Promise<CallResult>) => run(), { live: () => false });

/**
 * False while no SDK has registered a tracer provider: the global tracer is then the API's no-op
 * one, whose spans record nothing and carry no context of their own, so a call runs as it would
 * untraced. Read through the API's proxy provider; where an API version lacks it, always true.
 */
function sdkRegistered(otel: typeof OTel): () => boolean {
  const Proxy = (otel as { ProxyTracerProvider?: new () => { getDelegate?(): unknown } }).ProxyTracerProvider;
  const idle = Proxy ? new Proxy().getDelegate?.() : undefined;
  if (idle === undefined) return () => true;
  // The API's `trace` is one object for the module's life, exported through a getter: read once,
  // not on every call (the getter was most of this check's time).
  const trace = otel.trace;
  return () => (trace.getTracerProvider() as { getDelegate?(): unknown }).getDelegate?.() !== idle;
}

let api: typeof OTel | null | undefined;

/** `undefined` while unknown, `null` once known to be absent: one failed `require` per process. */
function openTelemetry(): typeof OTel | null {
  if (api !== undefined) return api;
  try {
    // Loaded on first use and only if present: core works without it.
    api = require('@opentelemetry/api') as typeof OTel;
  } catch {
    api = null;
  }
  return api;
}

/**
 * `execute_tool {name}` spans per the OpenTelemetry GenAI semantic conventions. The method runs in
 * the span's context, so spans the tool starts are its children. Tracing never changes a result:
 * a tracer that throws leaves the call untraced.
 */
export function callTracing(options: TelemetryOptions | false | undefined): CallTracing {
  if (options === false) return untraced;
  const otel = openTelemetry();
  if (!otel) return untraced;
  const tracer = (options?.tracer as OTel.Tracer | undefined) ?? otel.trace.getTracer('@toolwright/core');
  const recordArguments = options?.recordArguments === true;
  const recordResults = options?.recordResults === true;
  const live = options?.tracer ? () => true : sdkRegistered(otel);
  const traced = (call: TracedCall, run: () => Promise<CallResult>): Promise<CallResult> => {
    let span: OTel.Span;
    let parent: OTel.Context;
    try {
      parent = call.parent ? otel.propagation.extract(otel.context.active(), call.parent) : otel.context.active();
      span = tracer.startSpan(`execute_tool ${call.name}`, { kind: otel.SpanKind.INTERNAL, attributes: startAttributes(call, recordArguments) }, parent);
    } catch {
      return run();
    }
    // What the API gives with no SDK registered and no span around: a span nothing records, that
    // no child could descend from. Making it current and ending it would change nothing.
    if (!span.isRecording() && span.spanContext().traceId === otel.INVALID_TRACEID) return run();
    let answered: Promise<CallResult>;
    try {
      answered = otel.context.with(otel.trace.setSpan(parent, span), run);
    } catch (error) {
      finish(span, otel, undefined, recordResults);
      return Promise.reject(error);
    }
    return answered.then(
      (result) => {
        finish(span, otel, result, recordResults);
        return result;
      },
      (error: unknown) => {
        finish(span, otel, undefined, recordResults);
        throw error;
      },
    );
  };
  return Object.assign(traced, { live });
}

function startAttributes(call: TracedCall, recordArguments: boolean): OTel.Attributes {
  const attributes: OTel.Attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': call.name,
    'gen_ai.tool.call.id': call.id,
    'gen_ai.tool.type': 'function',
  };
  if (call.description !== undefined) attributes['gen_ai.tool.description'] = call.description;
  if (recordArguments) attributes['gen_ai.tool.call.arguments'] = asJson(call.input);
  return attributes;
}

/** `answered` is `undefined` only if `run` rejected, which the container's calls never do. */
function finish(span: OTel.Span, otel: typeof OTel, answered: CallResult | undefined, recordResults: boolean): void {
  try {
    if (answered && recordResults) {
      const { content } = answered.result;
      span.setAttribute('gen_ai.tool.call.result', typeof content === 'string' ? content : asJson(content ?? ''));
    }
    if (!answered || answered.result.is_error) {
      span.setAttribute('error.type', answered?.outcome ?? '_OTHER');
      span.setStatus({ code: otel.SpanStatusCode.ERROR });
    }
    span.end();
  } catch {
    // A span that cannot be finished is the tracer's loss, not the call's.
  }
}

/** The semantic conventions carry structured values as JSON text; an input JSON cannot express gets a marker. */
function asJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[not serializable]';
  }
}
