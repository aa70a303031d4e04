import { DecisionError, checkDecisions, type RunState } from '@toolwright/core';
import { pausedRun } from './run-states';

const refusal = (run: Parameters<typeof checkDecisions>[1], decisions: unknown) => {
  try {
    checkDecisions('run_1', run, decisions);
  } catch (error) {
    expect(error).toBeInstanceOf(DecisionError);
    const { problem, runId, toolUseIds, message } = error as DecisionError;
    return { problem, runId, toolUseIds, message };
  }
  throw new Error('checkDecisions accepted them');
};

describe('decisions', () => {
  const run = pausedRun(['toolu_a', 'toolu_b'], 'run_1');

  it('pairs each pending call with its decision, in the order the model asked', () => {
    const decided = checkDecisions('run_1', run, { toolu_b: { approve: false, reason: 'too large' }, toolu_a: { approve: true } });
    expect(decided).toEqual([
      { call: run.pending[0], decision: { approve: true } },
      { call: run.pending[1], decision: { approve: false, reason: 'too large' } },
    ]);
  });

  it('accepts a run that is running: the store’s claim decides whether it may resume', () => {
    expect(checkDecisions('run_1', { ...run, status: 'running' }, { toolu_a: { approve: true }, toolu_b: { approve: true } })).toHaveLength(2);
  });

  it('refuses an unknown run', () => {
    expect(refusal(undefined, {})).toEqual({
      problem: 'unknown_run',
      runId: 'run_1',
      toolUseIds: [],
      message: 'Run "run_1" is not in the store; it may have never existed or been removed.',
    });
  });

  it('refuses another owner, or none, before anything else about the run', () => {
    const owned = pausedRun(['toolu_a'], 'run_1', 'C-ana');
    const right = { toolu_a: { approve: true } };
    expect(checkDecisions('run_1', owned, right, 'C-ana')).toHaveLength(1);
    const finished: RunState = { ...owned, status: 'finished', pending: [] };
    const cases: Array<[RunState, unknown, string | undefined]> = [[owned, right, 'C-bob'], [owned, right, undefined], [finished, right, 'C-bob'], [owned, 'not decisions', 'C-bob']];
    for (const [state, decisions, owner] of cases) {
      try {
        checkDecisions('run_1', state, decisions, owner);
        throw new Error('checkDecisions accepted them');
      } catch (error) {
        expect(error).toMatchObject({ name: 'DecisionError', problem: 'not_owner', runId: 'run_1', toolUseIds: [] });
      }
    }
  });

  it('refuses a finished run', () => {
    expect(refusal({ ...run, status: 'finished', pending: [] }, {})).toMatchObject({
      problem: 'finished_run',
      message: 'Run "run_1" is finished; there is nothing left to decide.',
    });
  });

  it('refuses decisions for ids that are not pending, naming them', () => {
    expect(refusal(run, { toolu_a: { approve: true }, toolu_b: { approve: true }, toolu_x: { approve: true } })).toEqual({
      problem: 'not_pending',
      runId: 'run_1',
      toolUseIds: ['toolu_x'],
      message: 'Run "run_1" has no pending call "toolu_x"; pending: "toolu_a", "toolu_b".',
    });
  });

  it('refuses missing decisions, naming the ids still undecided', () => {
    expect(refusal(run, { toolu_a: { approve: true } })).toEqual({
      problem: 'missing',
      runId: 'run_1',
      toolUseIds: ['toolu_b'],
      message: 'Run "run_1" needs a decision for "toolu_b" too; decide every pending call at once.',
    });
    expect(refusal(run, {}).toolUseIds).toEqual(['toolu_a', 'toolu_b']);
  });

  it('takes the decision an earlier resume recorded for a call the retry leaves out; the retry’s own, when it gives one', () => {
    const recorded = { ...run, status: 'running' as const, pending: [{ ...run.pending[0], decision: { approve: false, reason: 'no' } }, run.pending[1]] };
    expect(refusal(recorded, {}).toolUseIds).toEqual(['toolu_b']);
    expect(checkDecisions('run_1', recorded, { toolu_b: { approve: true } }).map((d) => d.decision)).toEqual([{ approve: false, reason: 'no' }, { approve: true }]);
    expect(checkDecisions('run_1', recorded, { toolu_a: { approve: true }, toolu_b: { approve: true } }).map((d) => d.decision)).toEqual([{ approve: true }, { approve: true }]);
  });

  it('refuses a reason no request or store can carry (a lone surrogate, a NUL), naming the calls', () => {
    const refused = refusal(run, { toolu_a: { approve: false, reason: 'no \ud83d' }, toolu_b: { approve: false, reason: 'a\u0000b' } });
    expect(refused).toMatchObject({ problem: 'malformed', toolUseIds: ['toolu_a', 'toolu_b'] });
    expect(refused.message).toBe(
      'The reasons of "toolu_a", "toolu_b" hold a NUL character or invalid UTF-16 (a lone surrogate, as a text cut inside an emoji leaves); send them as plain text.',
    );
    expect(checkDecisions('run_1', run, { toolu_a: { approve: false, reason: 'no 😀' }, toolu_b: { approve: true } })).toHaveLength(2);
  });

  it.each([
    ['a non-boolean approve', { toolu_a: { approve: 'yes' }, toolu_b: { approve: true } }, ['toolu_a']],
    ['a non-string reason', { toolu_a: { approve: false, reason: 3 }, toolu_b: { approve: true } }, ['toolu_a']],
    ['a bare boolean', { toolu_a: true, toolu_b: null }, ['toolu_a', 'toolu_b']],
  ])('refuses a decision of the wrong shape: %s', (_, decisions, ids) => {
    expect(refusal(run, decisions)).toMatchObject({ problem: 'malformed', toolUseIds: ids });
  });

  it('refuses decisions that are not an object', () => {
    expect(refusal(run, [{ approve: true }]).message).toBe(
      'Decisions must be an object keyed by toolUseId: { "<toolUseId>": { "approve": true } }.',
    );
  });
});
