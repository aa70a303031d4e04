import { Ctx, Param, Tool, defineToolManifest, type ToolContext } from '@toolwright/core';
import type { Pool } from 'pg';
import type { KillPoint } from './protocol';

/** Asks the driver whether to go on at `point`; the driver may SIGKILL this process instead of answering. */
export type AtPoint = (point: KillPoint, toolUseId?: string) => Promise<void>;

/**
 * A bank's tools: `look_up` reads; `transfer` is a write that needs approval and `note` one that
 * does not. Each write's side effect is a row in `chaos_effects`, written in a transaction of its
 * own, keyed by `ctx.toolUseId`: a write that ran twice leaves two rows.
 */
export class ChaosTools {
  constructor(
    private readonly db: Pool,
    private readonly at: AtPoint,
  ) {}

  @Tool({ name: 'look_up', effect: 'read' })
  async lookUp(@Param() key: number) {
    return { key, balance: 100 };
  }

  @Tool({ name: 'transfer', effect: 'write' })
  async transfer(@Param() key: number, @Param() step: number, @Ctx() ctx: ToolContext) {
    await this.effect(key, step, ctx.toolUseId);
    return { key, step, transferred: true };
  }

  @Tool({ name: 'note', effect: 'write', approval: false })
  async note(@Param() key: number, @Param() step: number, @Ctx() ctx: ToolContext) {
    await this.effect(key, step, ctx.toolUseId);
    return 'noted';
  }

  private async effect(key: number, step: number, toolUseId: string): Promise<void> {
    const client = await this.db.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO chaos_effects (tool_use_id, run_key, step, pid) VALUES ($1, $2, $3, $4)', [toolUseId, key, step, process.pid]);
      await this.at('mid-write', toolUseId);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    await this.at('after-write', toolUseId);
  }
}

class KeyInput {
  key!: number;
}

class StepInput {
  key!: number;
  step!: number;
}

const key = { type: 'integer', minimum: 0 };
const step = { type: 'integer', minimum: 1 };
const definition = (name: string, properties: Record<string, unknown>) => ({
  name,
  description: `${name} for one chaos run.`,
  input_schema: { type: 'object' as const, properties, required: Object.keys(properties), additionalProperties: false },
});

export const chaosManifest = defineToolManifest([
  {
    provider: ChaosTools,
    method: 'lookUp',
    definition: definition('look_up', { key }),
    effect: 'read',
    inputClass: KeyInput,
    parameters: [{ kind: 'param', property: 'key' }],
  },
  {
    provider: ChaosTools,
    method: 'transfer',
    definition: definition('transfer', { key, step }),
    effect: 'write',
    inputClass: StepInput,
    parameters: [{ kind: 'param', property: 'key' }, { kind: 'param', property: 'step' }, { kind: 'ctx' }],
  },
  {
    provider: ChaosTools,
    method: 'note',
    definition: definition('note', { key, step }),
    effect: 'write',
    inputClass: StepInput,
    parameters: [{ kind: 'param', property: 'key' }, { kind: 'param', property: 'step' }, { kind: 'ctx' }],
  },
]);
