import 'reflect-metadata';
import { Ctx, Param, Tool, ToolContainer, defineToolManifest, type CompiledInputCheck, type ToolContext, type ToolEvent } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';

// Building a container whose tools take the general path (a guard, a `@Ctx`) runs that path once
// on a tool of toolwright's own, so its code is compiled before the first request. It must leave
// no trace: no user code, no event, no log, no Ajv, nothing pending.

let mockAjvLoaded = false;
jest.mock('ajv/dist/2020', () => {
  mockAjvLoaded = true;
  throw new Error('Ajv was loaded');
});

const ran: string[] = [];

class Guarded {
  @Tool({
    name: 'cancelar',
    effect: 'write',
    guard: (ctx: ToolContext<string>) => {
      ran.push('guard');
      return ctx.auth === 'owner';
    },
  })
  cancelar(@Param() numero: string, @Ctx() ctx: ToolContext<string>) {
    ran.push(`cancelar ${numero} ${ctx.toolUseId}`);
    return { numero, status: 'cancelado' };
  }
}

class CancelarInput {
  numero!: string;
}

const check: CompiledInputCheck = Object.assign((input: unknown) => typeof (input as { numero?: unknown }).numero === 'string', { errors: null });

const manifest = defineToolManifest([
  {
    provider: Guarded,
    method: 'cancelar',
    definition: {
      name: 'cancelar',
      description: 'Cancels an order of the session owner.',
      input_schema: { type: 'object', properties: { numero: { type: 'string' } }, required: ['numero'], additionalProperties: false },
    },
    effect: 'write',
    inputClass: CancelarInput,
    parameters: [{ kind: 'param', property: 'numero' }, { kind: 'ctx' }],
    inputCheck: check,
  },
]);

describe('building a container warms the general path up', () => {
  it('without running user code, emitting, logging or loading Ajv, and leaves the container as it was', async () => {
    const events: ToolEvent[] = [];
    const logged: unknown[] = [];
    const logger = { error: (...args: unknown[]) => void logged.push(args), warn: (...args: unknown[]) => void logged.push(args) };
    const container = new ToolContainer<string>({ manifest, providers: [new Guarded()], logger, onEvent: (event) => events.push(event) });
    new ToolContainer<string>({ manifest, providers: [new Guarded()], logger, onEvent: (event) => events.push(event) });
    // Whatever the warm-up might have left in the microtask queue or the next tick runs now.
    await new Promise((resolve) => setImmediate(resolve));
    expect({ ran, events, logged, mockAjvLoaded }).toEqual({ ran: [], events: [], logged: [], mockAjvLoaded: false });
    expect(container.names).toEqual(['cancelar']);

    const [refused] = await container.execute([toolUse('t1', 'cancelar', { numero: 'A-1' })], { auth: 'stranger' });
    const [done] = await container.execute([toolUse('t2', 'cancelar', { numero: 'A-1' })], { auth: 'owner' });
    expect([refused, done]).toEqual([
      { type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'Not allowed: cancelar refused this call.' },
      { type: 'tool_result', tool_use_id: 't2', content: '{"numero":"A-1","status":"cancelado"}' },
    ]);
    expect(ran).toEqual(['guard', 'guard', 'cancelar A-1 t2']);
    expect(events.map((e) => `${e.type} ${e.toolUseId}`)).toEqual(['call_start t1', 'call_end t1', 'call_start t2', 'call_end t2']);
  });

  it('leaves no timer behind when the container is built outside any microtask', async () => {
    // There the warm-up's tick runs before its guarded calls settle, so it sets their timers: they
    // must be cleared when the calls settle, or a process that only built a container would not
    // exit. The timers are followed through the globals the run time calls.
    const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;
    const set: unknown[] = [];
    const cleared = new Set<unknown>();
    try {
      await new Promise<void>((resolve) => {
        setImmediate(() => {
          globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
            const timer = realSetTimeout(...args);
            set.push(timer);
            return timer;
          }) as typeof setTimeout;
          globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => {
            cleared.add(timer);
            realClearTimeout(timer);
          }) as typeof clearTimeout;
          // A registry of its own, so this container runs the warm-up the first test's already ran.
          jest.isolateModules(() => {
            const isolated = require('@toolwright/core') as typeof import('@toolwright/core');
            new isolated.ToolContainer<string>({ manifest, providers: [new Guarded()] });
          });
          setImmediate(resolve);
        });
      });
    } finally {
      globalThis.setTimeout = realSetTimeout;
      globalThis.clearTimeout = realClearTimeout;
    }
    expect(set.length).toBeGreaterThan(0);
    expect(set.filter((timer) => !cleared.has(timer))).toEqual([]);
  });
});
