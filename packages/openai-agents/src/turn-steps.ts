import type { RunContext } from '@openai/agents';

/**
 * The scheduler's step for the calls of one model turn. The Agents runner hands a function tool
 * the run's `RunContext` (the same object for every turn of the run) and, per call, the call
 * item and a signal; nothing it hands names the turn. What marks a turn is the run's usage: the
 * runner adds each model response's usage to `context.usage` before it runs that response's
 * calls, and every OpenAI model of the SDK counts a response as one request. So the turn is
 * the run's context at its current request count; a model that reports no requests gives no
 * step, and its calls halt per batch only (the runner's batches: all the turn's calls at once,
 * or `maxFunctionToolConcurrency` at a time).
 */
export class TurnSteps {
  private readonly turns = new WeakMap<object, { requests: number; step: object }>();

  of(context: RunContext<unknown> | undefined): object | undefined {
    const requests = context?.usage?.requests;
    if (!context || typeof requests !== 'number' || requests === 0) return undefined;
    const turn = this.turns.get(context);
    if (turn?.requests === requests) return turn.step;
    const step = {};
    this.turns.set(context, { requests, step });
    return step;
  }
}
