import { IsString } from 'class-validator';
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import {
  Ctx,
  Param,
  Tool,
  ToolContainer,
  defineToolManifest,
  type ToolContainerOptions,
  type ToolContext,
} from '@toolwright/core';

// Tools whose every call does what its test scripts for its tool_use id, for the named hardening
// cases. Real timers: nothing here waits more than a few milliseconds, except where a test
// blocks the event loop on purpose.

/** What a call does, by tool_use id; a call without a script returns 'done'. */
export type Script = Record<string, (ctx: ToolContext<Probe>) => unknown>;

export class Probe {
  /** The ids whose method started, in order, with the instant. */
  readonly ran: Array<{ id: string; at: number }> = [];
  readonly logged: Array<{ level: 'error' | 'warn'; message: string; details: unknown[] }> = [];
  constructor(readonly script: Script = {}) {}

  perform(ctx: ToolContext<Probe>): unknown {
    this.ran.push({ id: ctx.toolUseId, at: performance.now() });
    const act = this.script[ctx.toolUseId];
    return act ? act(ctx) : 'done';
  }
}

export class KeyInput {
  @IsString()
  key!: string;
}

/** Blocks the event loop, as a synchronous permission check on a slow machine would. */
export function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

export const GUARD_BLOCKS_MS = 400;
export const GUARDED_TIMEOUT_MS = 150;

export class ProbeTools {
  @Tool({ name: 'probe_read', effect: 'read' })
  read(@Param() key: string, @Ctx() ctx: ToolContext<Probe>) {
    return ctx.auth.perform(ctx);
  }

  @Tool({ name: 'probe_write', effect: 'write' })
  write(@Param() key: string, @Ctx() ctx: ToolContext<Probe>) {
    return ctx.auth.perform(ctx);
  }

  @Tool({
    name: 'probe_slow_guard',
    effect: 'write',
    timeoutMs: GUARDED_TIMEOUT_MS,
    guard: () => {
      blockFor(GUARD_BLOCKS_MS);
      return true;
    },
  })
  slowGuard(@Param() key: string, @Ctx() ctx: ToolContext<Probe>) {
    return ctx.auth.perform(ctx);
  }
}

const definition = (name: string) => ({
  name,
  description: `Probe ${name} of the hardening tests. It does what its test scripted. It touches nothing real.`,
  input_schema: { type: 'object' as const, properties: { key: { type: 'string' } }, required: ['key'], additionalProperties: false },
});

const entry = (method: 'read' | 'write' | 'slowGuard', name: string, effect: 'read' | 'write') => ({
  provider: ProbeTools,
  method,
  definition: definition(name),
  effect,
  inputClass: KeyInput,
  parameters: [{ kind: 'param' as const, property: 'key' }, { kind: 'ctx' as const }],
});

export const probeManifest = defineToolManifest([
  entry('read', 'probe_read', 'read'),
  entry('write', 'probe_write', 'write'),
  entry('slowGuard', 'probe_slow_guard', 'write'),
]);

export function probeContainer(probe: Probe, options: Partial<ToolContainerOptions> = {}): ToolContainer<Probe> {
  return new ToolContainer<Probe>({
    manifest: probeManifest,
    providers: [new ProbeTools()],
    logger: {
      error: (message, ...details) => void probe.logged.push({ level: 'error', message, details }),
      warn: (message, ...details) => void probe.logged.push({ level: 'warn', message, details }),
    },
    ...options,
  });
}

export const use = (id: unknown, name: unknown, input: unknown = { key: 'k1' }): ContentBlockParam =>
  ({ type: 'tool_use', id, name, input }) as ContentBlockParam;

export const INTERNAL = (tool: string) => `Internal error in ${tool}. It was logged; do not retry with the same input.`;
