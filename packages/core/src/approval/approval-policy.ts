import type { ToolContext } from '../context';
import type { ToolApproval, ToolEffect } from '../decorators/tool-options';

/** The container's default for tools that set no `approval` option: nothing, or every write. */
export type ApprovalPolicy = 'none' | 'writes';

/** One call, already validated and past its guard (nobody is asked about a call that would be refused). */
export interface ApprovalQuestion<TAuth = unknown, TInput = unknown> {
  policy: ApprovalPolicy;
  effect: ToolEffect;
  /** The tool's `@Tool({ approval })` option, which wins over the policy when set. */
  approval: ToolApproval<TAuth, TInput> | undefined;
  /** `this` for a predicate, as for a guard. */
  provider?: object;
  ctx: ToolContext<TAuth>;
  input: TInput;
}

/**
 * Whether the call must wait for a person. A predicate that throws rejects this promise; the
 * caller answers that call as it answers a guard that throws.
 */
export async function needsApproval<TAuth, TInput>(question: ApprovalQuestion<TAuth, TInput>): Promise<boolean> {
  const { approval } = question;
  if (typeof approval === 'function') return Boolean(await approval.call(question.provider, question.ctx, question.input));
  if (typeof approval === 'boolean') return approval;
  return question.policy === 'writes' && question.effect === 'write';
}
