import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ToolContext, ToolLogger } from '../context';
import type { RegisteredTool, ToolCall } from '../execution/call.types';
import { validateInput } from '../validation/validate-input';
import type { InputLimits } from '../validation/plain-input';
import { needsApproval, type ApprovalPolicy } from './approval-policy';
import type { PendingCall } from './run-state';

/** What a batch needs before it may run: calls that wait for a person, calls answered already. */
export interface ApprovalCheck {
  /** In the order the model asked for them; empty when the batch may run now. */
  pending: PendingCall[];
  /** Calls whose approval predicate threw, answered as a guard that throws is. */
  answered: ToolResultBlockParam[];
}

export interface ApprovalCheckEnv {
  policy: ApprovalPolicy;
  tool(name: string): RegisteredTool | undefined;
  auth: unknown;
  logger: ToolLogger;
  /** The container's input limits: a call refused by them is not asked about. */
  limits: InputLimits;
  /** The answer to a call whose predicate threw (the container's internal error). */
  internalError(call: ToolCall): ToolResultBlockParam;
}

/** Whether any call under `policy` could be asked about: when not, checking a batch costs nothing. */
export function mayAskApproval(policy: ApprovalPolicy, tools: Iterable<RegisteredTool>): boolean {
  if (policy === 'writes') return true;
  for (const tool of tools) if (tool.options.approval !== undefined && tool.options.approval !== false) return true;
  return false;
}

/**
 * The calls of `blocks` a person must decide on. A call is asked about only once it is valid
 * and its guard lets it through: a call that will be refused anyway is left for the execution
 * to answer. The guard runs again when the call runs (after the decision, maybe in another process).
 */
export async function checkApprovals(blocks: readonly ToolCall[], env: ApprovalCheckEnv): Promise<ApprovalCheck> {
  const pending: PendingCall[] = [];
  const answered: ToolResultBlockParam[] = [];
  for (const block of blocks) {
    const tool = env.tool(block.name);
    if (!tool || !mightAsk(env.policy, tool)) continue;
    try {
      const checked = await validateInput(block.input, tool, env.limits);
      if (!checked.ok) continue;
      const ctx: ToolContext<unknown> = {
        toolUseId: block.id,
        toolName: tool.name,
        auth: env.auth,
        signal: new AbortController().signal,
        logger: env.logger,
        progress: async () => undefined,
        log: async () => undefined,
      };
      const { guard, approval } = tool.options;
      if (guard && !(await guard.call(tool.instance, ctx, checked.value))) continue;
      if (await needsApproval({ policy: env.policy, effect: tool.effect, approval, provider: tool.instance, ctx, input: checked.value })) {
        pending.push({ toolUseId: block.id, toolName: block.name, input: structuredClone(block.input) as Record<string, unknown>, effect: tool.effect });
      }
    } catch (error) {
      env.logger.error(`toolwright: checking whether ${tool.name} (${block.id}) needs approval failed:`, error);
      answered.push(env.internalError(block));
    }
  }
  return { pending, answered };
}

function mightAsk(policy: ApprovalPolicy, tool: RegisteredTool): boolean {
  const { approval } = tool.options;
  if (approval === undefined) return policy === 'writes' && tool.effect === 'write';
  return approval !== false;
}
