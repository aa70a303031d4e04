import 'reflect-metadata';
import { IsString } from 'class-validator';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Param, Tool, ToolContainer, ToolError, defineToolManifest, type ToolContainerOptions } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class SkuInput {
  @IsString() sku!: string;
}

/** Tools that trace their own work through the global API, as application code does. */
class InventoryTools {
  @Tool({ effect: 'read' })
  async stock(@Param() sku: string) {
    await sleep(5);
    return trace.getTracer('inventory').startActiveSpan(`db ${sku}`, async (span) => {
      await sleep(5);
      span.end();
      return { sku, units: 3 };
    });
  }

  @Tool({ effect: 'read' })
  withdrawn(@Param() sku: string): never {
    throw new ToolError([{ type: 'text', text: `${sku} is withdrawn` }]);
  }

  @Tool({ effect: 'read', timeoutMs: 20 })
  async slow(@Param() sku: string) {
    await sleep(200);
    return sku;
  }
}

const skuSchema = { type: 'object' as const, properties: { sku: { type: 'string' } }, required: ['sku'], additionalProperties: false };
const entry = (method: keyof InventoryTools, name: string) => ({
  provider: InventoryTools,
  method,
  definition: { name, description: `The ${name} tool.`, input_schema: skuSchema },
  effect: 'read' as const,
  inputClass: SkuInput,
  parameters: [{ kind: 'param' as const, property: 'sku' }],
});
const manifest = defineToolManifest([entry('stock', 'stock'), entry('withdrawn', 'withdrawn'), entry('slow', 'slow')]);

const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager().enable();

const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(tracerProvider);
});

afterEach(() => exporter.reset());

afterAll(() => {
  trace.disable();
  context.disable();
});

function container(options: Partial<ToolContainerOptions> = {}) {
  return new ToolContainer({ manifest, providers: [new InventoryTools()], logger: { error() {}, warn() {} }, ...options });
}

const toolSpans = () => exporter.getFinishedSpans().filter((s) => s.name.startsWith('execute_tool '));
const spanNamed = (name: string): ReadableSpan => {
  const found = exporter.getFinishedSpans().filter((s) => s.name === name);
  expect(found).toHaveLength(1);
  return found[0];
};

describe('execute_tool spans (OpenTelemetry GenAI semantic conventions)', () => {
  it('gives a successful call one INTERNAL span named after the tool, with the call attributes and no error', async () => {
    const [result] = await container().execute([toolUse('toolu_1', 'stock', { sku: 'SKU-1' })]);
    expect(result.is_error).toBeUndefined();

    const span = spanNamed('execute_tool stock');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'stock',
      'gen_ai.tool.call.id': 'toolu_1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'The stock tool.',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.instrumentationScope.name).toBe('@toolwright/core');
  });

  it.each([
    ['tool_error', 'withdrawn', { sku: 'SKU-9' }],
    ['invalid_input', 'stock', { sku: 42 }],
    ['timeout', 'slow', { sku: 'SKU-1' }],
    ['unknown_tool', 'restock', { sku: 'SKU-1' }],
  ])('marks a call answered with is_error as an ERROR span with error.type %s', async (outcome, name, input) => {
    const [result] = await container().execute([toolUse('toolu_e', name, input)]);
    expect(result.is_error).toBe(true);

    const span = spanNamed(`execute_tool ${name}`);
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({ 'gen_ai.tool.name': name, 'gen_ai.tool.call.id': 'toolu_e', 'error.type': outcome });
  });

  it('records neither arguments nor results unless asked to', async () => {
    await container({ telemetry: {} }).execute([toolUse('toolu_1', 'stock', { sku: 'SKU-secret' })]);
    const [span] = toolSpans();
    expect(span.attributes).not.toHaveProperty('gen_ai.tool.call.arguments');
    expect(span.attributes).not.toHaveProperty('gen_ai.tool.call.result');
  });

  it('records the input and what the model reads, as JSON text, when opted in', async () => {
    const tools = container({ telemetry: { recordArguments: true, recordResults: true } });
    const [ok, failed] = await tools.execute([toolUse('toolu_1', 'stock', { sku: 'SKU-1' }), toolUse('toolu_2', 'withdrawn', { sku: 'SKU-9' })]);

    expect(spanNamed('execute_tool stock').attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"sku":"SKU-1"}',
      'gen_ai.tool.call.result': ok.content,
    });
    expect(ok.content).toBe('{"sku":"SKU-1","units":3}');
    expect(spanNamed('execute_tool withdrawn').attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"sku":"SKU-9"}',
      'gen_ai.tool.call.result': '[{"type":"text","text":"SKU-9 is withdrawn"}]',
    });
    expect(failed.content).toEqual([{ type: 'text', text: 'SKU-9 is withdrawn' }]);
  });

  it('runs the tool inside its span: spans the tool starts are its children, and it is a child of the caller span', async () => {
    const tools = container();
    await trace.getTracer('app').startActiveSpan('chat turn', async (turn) => {
      // Two reads run at once: each tool's span must land under its own call, not the other's.
      await tools.execute([toolUse('toolu_1', 'stock', { sku: 'A' }), toolUse('toolu_2', 'stock', { sku: 'B' })]);
      turn.end();
    });

    const turn = spanNamed('chat turn');
    for (const [id, sku] of [['toolu_1', 'A'], ['toolu_2', 'B']]) {
      const call = toolSpans().find((s) => s.attributes['gen_ai.tool.call.id'] === id)!;
      const db = spanNamed(`db ${sku}`);
      expect(call.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
      expect(db.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
      expect(db.spanContext().traceId).toBe(turn.spanContext().traceId);
    }
  });

  it('traces executeCall as execute does', async () => {
    await container().executeCall({ id: 'toolu_9', name: 'stock', input: { sku: 'SKU-1' } });
    expect(spanNamed('execute_tool stock').attributes['gen_ai.tool.call.id']).toBe('toolu_9');
  });

  it('sends spans to the tracer given in the options instead of the global one', async () => {
    const mine = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(mine)] }).getTracer('mine');
    await container({ telemetry: { tracer } }).execute([toolUse('toolu_1', 'stock', { sku: 'SKU-1' })]);

    expect(mine.getFinishedSpans().map((s) => s.name)).toEqual(['execute_tool stock']);
    expect(toolSpans()).toEqual([]);
  });

  it('follows the SDK registered at the time of each call, not at the time the container was built', async () => {
    trace.disable();
    try {
      const tools = container();
      await tools.execute([toolUse('t1', 'stock', { sku: 'A' })]);
      expect(toolSpans()).toHaveLength(0);
      trace.setGlobalTracerProvider(tracerProvider);
      await tools.execute([toolUse('t2', 'stock', { sku: 'A' })]);
      expect(toolSpans().map((s) => s.attributes['gen_ai.tool.call.id'])).toEqual(['t2']);
      trace.disable();
      await tools.execute([toolUse('t3', 'stock', { sku: 'A' })]);
      expect(toolSpans()).toHaveLength(1);
    } finally {
      trace.disable();
      trace.setGlobalTracerProvider(tracerProvider);
    }
  });

  it('makes no span with telemetry: false', async () => {
    const [result] = await container({ telemetry: false }).execute([toolUse('toolu_1', 'stock', { sku: 'SKU-1' })]);
    expect(result.is_error).toBeUndefined();
    expect(toolSpans()).toEqual([]);
  });

  it('answers as usual when the tracer throws', async () => {
    const tracer = {
      startSpan(): never {
        throw new Error('exporter down');
      },
    };
    const [result] = await container({ telemetry: { tracer } }).execute([toolUse('toolu_1', 'stock', { sku: 'SKU-1' })]);
    expect(result).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"sku":"SKU-1","units":3}' });
  });

  it('runs calls untraced when @opentelemetry/api is not installed', async () => {
    let run: Promise<unknown> | undefined;
    jest.isolateModules(() => {
      jest.doMock('@opentelemetry/api', () => {
        throw new Error("Cannot find module '@opentelemetry/api'");
      });
      const { callTracing } = require('../../src/interop/opentelemetry') as typeof import('../../src/interop/opentelemetry');
      const answered = { result: { type: 'tool_result' as const, tool_use_id: 'toolu_1' }, outcome: 'ok' as const };
      run = callTracing(undefined)({ name: 'stock', id: 'toolu_1', input: {} }, async () => answered).then((r) => expect(r).toBe(answered));
    });
    await run;
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe("a caller's trace context", () => {
  it('continues the trace a traceparent names (an MCP request\'s _meta): the call\'s span is its child, the tool\'s spans the call\'s', async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    try {
      const tools = new ToolContainer({ manifest, providers: [new InventoryTools()] });
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const caller = '00f067aa0ba902b7';
      const result = await tools.executeCall({ id: 'toolu_t', name: 'stock', input: { sku: 'a' } }, { traceContext: { traceparent: `00-${traceId}-${caller}-01` } });
      expect(result.result.is_error).toBeUndefined();
      const spans = exporter.getFinishedSpans();
      const call = spans.find((s) => s.name === 'execute_tool stock')!;
      expect(call.spanContext().traceId).toBe(traceId);
      expect(call.parentSpanContext?.spanId).toBe(caller);
      expect(spans.find((s) => s.name === 'db a')!.parentSpanContext?.spanId).toBe(call.spanContext().spanId);

      // A malformed one (from outside: NUL, wrong length, a huge string) is ignored, never fatal.
      for (const traceparent of [`00-${traceId}\u0000-${caller}-01`, '00-abc-def-01', 'x'.repeat(100_000)]) {
        exporter.reset();
        const answered = await tools.executeCall({ id: 'toolu_m', name: 'stock', input: { sku: 'm' } }, { traceContext: { traceparent } });
        expect(answered.result.is_error).toBeUndefined();
        expect(exporter.getFinishedSpans().find((s) => s.name === 'execute_tool stock')!.parentSpanContext).toBeUndefined();
      }

      // Without one, the call starts a trace of its own (no context is active here).
      exporter.reset();
      await tools.executeCall({ id: 'toolu_u', name: 'stock', input: { sku: 'b' } });
      expect(exporter.getFinishedSpans().find((s) => s.name === 'execute_tool stock')!.spanContext().traceId).not.toBe(traceId);
    } finally {
      propagation.disable();
    }
  });
});
