import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { PendingCall, ToolCall, ToolContainer } from '@toolwright/core';

/** What a person answers to one interrupt: `Command({ resume: { approve: true } })`, or `false` with a reason the model reads. */
export interface ApprovalAnswer {
  approve: boolean;
  reason?: string;
}

/** What happens to one call of a step once every approval in it is decided. */
export type CallDecision =
  | { kind: 'run' }
  | { kind: 'deny'; reason?: string }
  /** Answered without running: the approval predicate threw, no one can ask, or the answer is not one. */
  | { kind: 'answered'; result: ToolResultBlockParam };

/** The answer to a call that needs approval where nobody can be asked. */
const CANNOT_ASK = (name: string) => `Not executed: ${name} needs a person's approval, which only a LangGraph graph with a checkpointer can ask for.`;
/** The answer to a call resumed with something that is not an `ApprovalAnswer`: it does not run. */
const NOT_AN_ANSWER = (name: string) => `Not executed: the approval answer for ${name} was not { approve: true } or { approve: false }.`;

type LangGraph = Pick<typeof import('@langchain/langgraph'), 'interrupt' | 'isGraphInterrupt'>;

let langGraph: LangGraph | null | undefined;

/** `@langchain/langgraph`, an optional peer: loaded the first time a call needs approval. */
function loadLangGraph(): LangGraph | null {
  if (langGraph !== undefined) return langGraph;
  try {
    langGraph = require('@langchain/langgraph') as LangGraph;
  } catch {
    langGraph = null;
  }
  return langGraph;
}

/**
 * Approval through LangGraph's own mechanism: a call that needs it `interrupt()`s the graph with
 * the call (`{ toolUseId, toolName, input, effect }`), and the graph is resumed with
 * `new Command({ resume: { approve } })` on the same thread (a checkpointer keeps it).
 *
 * On resume LangGraph runs the whole tool node again, so nothing of a step runs before every
 * approval in it is decided (the calls that need none included): the step's calls are decided
 * together, once per run of the node, the interrupts in the model's order (one per call, each
 * resume answering the next), and then all of them go to the scheduler in the same tick, so
 * the order and the failed-write halt of the step hold as if nobody had been asked.
 */
export class GraphApprovals<TAuth> {
  /** Per run of the tool node (the state object it hands each call), per step: the decisions of the step's calls. */
  private readonly decided = new WeakMap<object, WeakMap<object, Promise<Map<string, CallDecision>>>>();

  constructor(
    private readonly container: ToolContainer<TAuth>,
    private readonly auth: TAuth | undefined,
  ) {}

  /**
   * The decision for `call`, one of `calls()` (the step's, in the model's order). Rejects with
   * LangGraph's `GraphInterrupt` while a decision is missing: the tool must let it through.
   */
  async decide(call: ToolCall, calls: () => readonly ToolCall[], step: object | undefined, run: object | undefined): Promise<CallDecision> {
    if (!step || !run) return (await this.decideStep([call])).get(call.id)!;
    let steps = this.decided.get(run);
    if (!steps) this.decided.set(run, (steps = new WeakMap()));
    let decisions = steps.get(step);
    if (!decisions) {
      const all = calls();
      steps.set(step, (decisions = this.decideStep(all.some((c) => c.id === call.id) ? all : [...all, call])));
    }
    return (await decisions).get(call.id) ?? { kind: 'run' };
  }

  private async decideStep(calls: readonly ToolCall[]): Promise<Map<string, CallDecision>> {
    const decisions = new Map<string, CallDecision>(calls.map((c) => [c.id, { kind: 'run' }]));
    const check = await this.container.checkApprovals(
      calls.map((c) => ({ type: 'tool_use', ...c })),
      { auth: this.auth },
    );
    for (const result of check.answered) decisions.set(result.tool_use_id, { kind: 'answered', result });
    for (const pending of check.pending) decisions.set(pending.toolUseId, this.ask(pending));
    return decisions;
  }

  /** One interrupt: the person's answer on resume; it throws `GraphInterrupt` until there is one. */
  private ask(pending: PendingCall): CallDecision {
    const refuse = (content: string): CallDecision => ({ kind: 'answered', result: { type: 'tool_result', tool_use_id: pending.toolUseId, content, is_error: true } });
    const graph = loadLangGraph();
    if (!graph) return refuse(CANNOT_ASK(pending.toolName));
    let answer: unknown;
    try {
      answer = graph.interrupt<PendingCall, unknown>(pending);
    } catch (error) {
      if (graph.isGraphInterrupt(error)) throw error;
      // Outside a graph, or in one without a checkpointer: LangGraph refuses before it counts an interrupt.
      return refuse(CANNOT_ASK(pending.toolName));
    }
    if (!isAnswer(answer)) return refuse(NOT_AN_ANSWER(pending.toolName));
    return answer.approve ? { kind: 'run' } : { kind: 'deny', reason: typeof answer.reason === 'string' && answer.reason !== '' ? answer.reason : undefined };
  }
}

function isAnswer(value: unknown): value is ApprovalAnswer {
  return typeof value === 'object' && value !== null && typeof (value as { approve?: unknown }).approve === 'boolean';
}
