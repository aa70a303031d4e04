import 'reflect-metadata';
import { Tool, ToolDefinitionError, needsApproval, type ApprovalPolicy, type ToolApproval, type ToolContext, type ToolEffect } from '@toolwright/core';

const ctx: ToolContext<{ role: string }> = {
  toolUseId: 'toolu_1',
  toolName: 'orders_refund',
  auth: { role: 'agent' },
  signal: new AbortController().signal,
  logger: { error: () => {}, warn: () => {} },
  progress: async () => undefined,
  log: async () => undefined,
};

const ask = (policy: ApprovalPolicy, effect: ToolEffect, approval?: ToolApproval, input: unknown = {}, provider?: object) =>
  needsApproval({ policy, effect, approval, ctx, input, provider });

describe('approval policy', () => {
  it.each([
    ['none', 'read', undefined, false],
    ['none', 'write', undefined, false],
    ['writes', 'read', undefined, false],
    ['writes', 'write', undefined, true],
    ['none', 'read', true, true],
    ['writes', 'write', false, false],
  ] as const)('policy %s, effect %s, option %s: %s', async (policy, effect, approval, expected) => {
    expect(await ask(policy, effect, approval)).toBe(expected);
  });

  it('asks a predicate with the context and the validated input, over the policy', async () => {
    const overLimit = (c: ToolContext<{ role: string }>, input: { amountCents: number }) => c.auth.role !== 'admin' && input.amountCents > 10_000;
    expect(await ask('none', 'write', overLimit, { amountCents: 20_000 })).toBe(true);
    expect(await ask('writes', 'write', overLimit, { amountCents: 500 })).toBe(false);
  });

  it('awaits an async predicate and binds this to the provider', async () => {
    const provider = { limit: 100 };
    const approval = async function (this: { limit: number }, _: unknown, input: { amount: number }) {
      return input.amount > this.limit;
    };
    expect(await ask('none', 'write', approval, { amount: 101 }, provider)).toBe(true);
    expect(await ask('none', 'write', approval, { amount: 99 }, provider)).toBe(false);
  });

  it('rejects when the predicate throws, so the caller answers that call as a failed guard', async () => {
    await expect(ask('none', 'write', () => { throw new Error('limits service down'); })).rejects.toThrow('limits service down');
  });

  it('@Tool accepts approval: true or a function and refuses anything else', () => {
    expect(() => {
      class Refunds {
        @Tool({ approval: true }) refund() {}
        @Tool({ approval: (_ctx, input: { amount: number }) => input.amount > 100 }) partial() {}
      }
      return Refunds;
    }).not.toThrow();
    expect(() => {
      class Refunds {
        @Tool({ approval: 'yes' as never }) refund() {}
      }
      return Refunds;
    }).toThrow(new ToolDefinitionError('@Tool on Refunds.refund: approval must be true, false or a function (ctx, input) => boolean, got "yes".'));
  });
});
