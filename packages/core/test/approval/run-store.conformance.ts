import { RunClaimError, RunConflictError, RunStateError, type RunState, type RunStore, type RunStoreOptions } from '@toolwright/core';
import { pausedRun } from './run-states';

/** Builds a store over the shared backend; every test uses fresh run ids, so one backend serves all. */
export type MakeRunStore = (options: RunStoreOptions) => RunStore;

const LEASE_MS = 1_000;

/** What every `RunStore` must do, whatever holds the data. */
export function describeRunStoreConformance(makeStore: MakeRunStore): void {
  let now = 1_700_000_000_000;
  const store = () => makeStore({ claimLeaseMs: LEASE_MS, clock: () => now });
  const result = (id: string, text: string, isError = false) => ({
    type: 'tool_result' as const,
    tool_use_id: id,
    content: text,
    ...(isError ? { is_error: true } : {}),
  });

  describe('runs', () => {
    it('loads a created run as it was saved, at revision 1', async () => {
      const runs = store();
      const state = pausedRun();
      expect(await runs.create(state)).toEqual({ state, revision: 1 });
      expect(await runs.load(state.runId)).toEqual({ state, revision: 1 });
    });

    it('keeps its own copy: changing the objects given or returned changes nothing stored', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      state.pending[0].input.amountCents = 1;
      (await runs.load(state.runId))!.state.pending[0].input.amountCents = 2;
      expect((await runs.load(state.runId))!.state.pending[0].input.amountCents).toBe(2500);
    });

    it('answers undefined for a run it does not have', async () => {
      expect(await store().load('run_never_created')).toBeUndefined();
    });

    it('refuses to create a run id twice', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const error = await runs.create(state).catch((e) => e);
      expect(error).toBeInstanceOf(RunConflictError);
      expect(error).toMatchObject({ problem: 'exists', runId: state.runId, actualRevision: 1 });
    });

    it('refuses a malformed state before writing anything', async () => {
      const runs = store();
      const state = { ...pausedRun(), version: 3 } as unknown as RunState;
      await expect(runs.create(state)).rejects.toThrow(RunStateError);
      expect(await runs.load(state.runId)).toBeUndefined();
    });

    it('saves at the expected revision and refuses a stale one', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const next = { ...state, used: { ...state.used, turns: 2 } };
      expect(await runs.save(next, 1)).toEqual({ state: next, revision: 2 });
      const error = await runs.save({ ...state, used: { ...state.used, turns: 9 } }, 1).catch((e) => e);
      expect(error).toBeInstanceOf(RunConflictError);
      expect(error).toMatchObject({ problem: 'revision', actualRevision: 2 });
      expect(error.message).toContain('revision 2, not 1');
      expect((await runs.load(state.runId))!.state.used.turns).toBe(2);
    });

    it('keeps the run’s owner through a claim and a save', async () => {
      const runs = store();
      const state = pausedRun(undefined, undefined, 'C-ana');
      await runs.create(state);
      const claimed = await runs.claim(state.runId);
      expect(claimed.state.owner).toBe('C-ana');
      await runs.save({ ...claimed.state, status: 'finished', pending: [] }, claimed.revision);
      expect((await runs.load(state.runId))!.state).toMatchObject({ owner: 'C-ana', status: 'finished' });
    });

    it('keeps the decisions a resume records on the pending calls of the run it holds, reasons exactly', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const held = await runs.claim(state.runId);
      const reason = 'no \u0000, lone \ud83d';
      const decided = { ...held.state, pending: held.state.pending.map((call) => ({ ...call, decision: { approve: false, reason } })) };
      const saved = await runs.save(decided, held.revision);
      expect(saved.state).toEqual(decided);
      expect((await runs.load(state.runId))!.state.pending[0].decision).toEqual({ approve: false, reason });
    });

    it('keeps a state whose messages hold NUL and lone surrogates exactly', async () => {
      const runs = store();
      const state = pausedRun();
      const odd = 'nul \u0000, lone \ud83d, pair \ud83d\ude00';
      state.messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: odd }] });
      state.pending[0].input.note = odd;
      await runs.create(state);
      expect(await runs.load(state.runId)).toEqual({ state, revision: 1 });
      const held = await runs.claim(state.runId);
      expect(held.state.pending[0].input.note).toBe(odd);
      expect((await runs.save(held.state, held.revision)).state).toEqual(held.state);
    });

    it('refuses run ids and owners no store can hold as malformed states, and knows no run by them', async () => {
      const runs = store();
      for (const runId of ['run_\u0000', 'run_\ud800x', 'run_\udc00']) {
        await expect(runs.create({ ...pausedRun(), runId })).rejects.toMatchObject({ name: 'RunStateError', problem: 'malformed' });
        expect(await runs.load(runId)).toBeUndefined();
        await expect(runs.claim(runId)).rejects.toMatchObject({ name: 'RunClaimError', problem: 'unknown_run' });
        await expect(runs.renew(runId, 1)).rejects.toMatchObject({ name: 'RunConflictError', problem: 'unknown_run' });
        expect((await runs.journaledResults(runId)).size).toBe(0);
      }
      await expect(runs.create({ ...pausedRun(), owner: 'C-\u0000' })).rejects.toThrow(/owner holds a NUL character/);
      const state = pausedRun();
      state.pending[0].toolUseId = 'toolu_\ud800';
      await expect(runs.create(state)).rejects.toThrow(/pending\[0\]\.toolUseId holds a lone surrogate/);
    });

    it('refuses to save a run that was never created', async () => {
      const error = await store().save(pausedRun(), 1).catch((e) => e);
      expect(error).toBeInstanceOf(RunConflictError);
      expect(error.problem).toBe('unknown_run');
    });
  });

  describe('claims', () => {
    it('marks a pending run running and bumps its revision', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      expect(await runs.claim(state.runId)).toEqual({ state: { ...state, status: 'running' }, revision: 2 });
      expect((await runs.load(state.runId))!.state.status).toBe('running');
    });

    it('refuses a second claim while the first holds, with a clear answer', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      await runs.claim(state.runId);
      const error = await runs.claim(state.runId).catch((e) => e);
      expect(error).toBeInstanceOf(RunClaimError);
      expect(error.problem).toBe('claimed');
      expect(error.message).toContain('being resumed by another request');
    });

    it('lets exactly one of many concurrent claims through', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const settled = await Promise.allSettled(Array.from({ length: 6 }, () => runs.claim(state.runId)));
      expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
      for (const s of settled.filter((s) => s.status === 'rejected')) {
        expect((s as PromiseRejectedResult).reason).toMatchObject({ name: 'RunClaimError', problem: 'claimed' });
      }
    });

    it('refuses unknown and finished runs', async () => {
      const runs = store();
      await expect(runs.claim('run_never_created')).rejects.toMatchObject({ name: 'RunClaimError', problem: 'unknown_run' });
      const state = pausedRun();
      await runs.create({ ...state, status: 'finished', pending: [] });
      await expect(runs.claim(state.runId)).rejects.toMatchObject({ name: 'RunClaimError', problem: 'finished' });
    });

    it('is free again once the holder saves a non-running status', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const held = await runs.claim(state.runId);
      await runs.save({ ...held.state, status: 'pending' }, held.revision);
      expect((await runs.claim(state.runId)).revision).toBe(4);
    });

    it('lapses when the holder stops writing, and the old holder can no longer save', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const crashed = await runs.claim(state.runId);
      now += LEASE_MS;
      const next = await runs.claim(state.runId);
      expect(next.revision).toBe(crashed.revision + 1);
      await expect(runs.save({ ...crashed.state, status: 'finished', pending: [] }, crashed.revision)).rejects.toMatchObject({
        name: 'RunConflictError',
        problem: 'revision',
      });
    });

    it('renews the claim on every running save', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const held = await runs.claim(state.runId);
      now += LEASE_MS - 1;
      await runs.save(held.state, held.revision);
      now += LEASE_MS - 1;
      await expect(runs.claim(state.runId)).rejects.toMatchObject({ problem: 'claimed' });
      now += 1;
      await expect(runs.claim(state.runId)).resolves.toMatchObject({ revision: 4 });
    });

    it('counts a run created running as claimed by its creator', async () => {
      const runs = store();
      const state = { ...pausedRun(), status: 'running' as const };
      await runs.create(state);
      await expect(runs.claim(state.runId)).rejects.toMatchObject({ problem: 'claimed' });
    });

    it('renews a claim held at a revision, changing nothing else', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const held = await runs.claim(state.runId);
      now += LEASE_MS - 1;
      await runs.renew(state.runId, held.revision);
      expect(await runs.load(state.runId)).toEqual(held);
      now += LEASE_MS - 1;
      await expect(runs.claim(state.runId)).rejects.toMatchObject({ problem: 'claimed' });
      now += 1;
      await expect(runs.claim(state.runId)).resolves.toMatchObject({ revision: held.revision + 1 });
    });

    it('gives a run that is not running no claim when renewed: a heartbeat after the pause does not hold off the resume', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const held = await runs.claim(state.runId);
      const paused = await runs.save({ ...held.state, status: 'pending' }, held.revision);
      await runs.renew(state.runId, paused.revision);
      await expect(runs.claim(state.runId)).resolves.toMatchObject({ revision: paused.revision + 1 });
    });

    it('refuses to renew a claim another process took over, or a run it does not have', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const lapsed = await runs.claim(state.runId);
      now += LEASE_MS;
      const taken = await runs.claim(state.runId);
      await expect(runs.renew(state.runId, lapsed.revision)).rejects.toMatchObject({
        name: 'RunConflictError',
        problem: 'revision',
        actualRevision: taken.revision,
      });
      await expect(runs.renew('run_never_created', 1)).rejects.toMatchObject({ name: 'RunConflictError', problem: 'unknown_run' });
    });

    it('lets a released run be claimed at once, from the state it was released with', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const held = await runs.claim(state.runId);
      const halfway = { ...held.state, pending: [], used: { ...held.state.used, turns: 3 } };
      expect(await runs.release(halfway, held.revision)).toEqual({ state: halfway, revision: held.revision + 1 });
      await expect(runs.release(halfway, held.revision)).rejects.toMatchObject({ name: 'RunConflictError', problem: 'revision' });
      expect(await runs.claim(state.runId)).toEqual({ state: halfway, revision: held.revision + 2 });
    });

    it('refuses a claim at a revision the run has moved past', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      await runs.save(state, 1);
      await expect(runs.claim(state.runId, { expectedRevision: 1 })).rejects.toMatchObject({
        name: 'RunConflictError',
        problem: 'revision',
        actualRevision: 2,
      });
      await expect(runs.claim(state.runId, { expectedRevision: 2 })).resolves.toMatchObject({ revision: 3 });
    });

    it('counts a claim lapsed at the instant its lease ends: a claim at a stale revision then hears of the revision', async () => {
      const runs = store();
      const state = pausedRun();
      await runs.create(state);
      const held = await runs.claim(state.runId);
      now += LEASE_MS;
      await expect(runs.claim(state.runId, { expectedRevision: 1 })).rejects.toMatchObject({
        name: 'RunConflictError',
        problem: 'revision',
        actualRevision: held.revision,
      });
      await expect(runs.claim(state.runId, { expectedRevision: held.revision })).resolves.toMatchObject({ revision: held.revision + 1 });
    });
  });

  describe('result journal', () => {
    it('keeps the first result for a tool_use_id and hands it back to later writers', async () => {
      const runs = store();
      const { runId } = pausedRun();
      expect(await runs.recordResult(runId, result('toolu_a', 'refunded R-1'))).toEqual({ result: result('toolu_a', 'refunded R-1'), recorded: true });
      expect(await runs.recordResult(runId, result('toolu_a', 'refunded R-2'))).toEqual({ result: result('toolu_a', 'refunded R-1'), recorded: false });
      expect(await runs.journaledResult(runId, 'toolu_a')).toEqual(result('toolu_a', 'refunded R-1'));
    });

    it('lists a run’s results in the order they were recorded, and only that run’s', async () => {
      const runs = store();
      const { runId } = pausedRun();
      const other = pausedRun().runId;
      await runs.recordResult(runId, result('toolu_b', 'second id first', true));
      await runs.recordResult(runId, result('toolu_a', 'then this'));
      await runs.recordResult(other, result('toolu_a', 'another run'));
      const journaled = await runs.journaledResults(runId);
      expect([...journaled.keys()]).toEqual(['toolu_b', 'toolu_a']);
      expect(journaled.get('toolu_b')).toEqual(result('toolu_b', 'second id first', true));
      expect(await runs.journaledResult(other, 'toolu_a')).toEqual(result('toolu_a', 'another run'));
    });

    it('answers nothing for results never recorded', async () => {
      const runs = store();
      expect(await runs.journaledResult('run_none', 'toolu_x')).toBeUndefined();
      expect((await runs.journaledResults('run_none')).size).toBe(0);
    });

    it('keeps content blocks as given', async () => {
      const runs = store();
      const { runId } = pausedRun();
      const block = { type: 'tool_result' as const, tool_use_id: 'toolu_a', content: [{ type: 'text' as const, text: '{"ok":true} — ✓' }] };
      await runs.recordResult(runId, block);
      expect(await runs.journaledResult(runId, 'toolu_a')).toEqual(block);
    });

    it('refuses anything but a tool_result block with an id', async () => {
      const runs = store();
      await expect(runs.recordResult('run_x', { type: 'text', text: 'hi' } as never)).rejects.toThrow(TypeError);
      await expect(runs.recordResult('run_x', { type: 'tool_result', tool_use_id: '' })).rejects.toThrow(/non-empty tool_use_id/);
    });

    it('keeps any result byte for byte: NUL, lone surrogates, every plane, control characters', async () => {
      const runs = store();
      const { runId } = pausedRun();
      const odd = 'a\u0000b \ud800 \udfff \udbff\udfff 😀 \u007f\u0080\u00ff\u2028 \\u0000 é';
      const block = { type: 'tool_result' as const, tool_use_id: 'toolu_odd', content: [{ type: 'text' as const, text: odd }] };
      expect(await runs.recordResult(runId, block)).toEqual({ result: block, recorded: true });
      const back = (await runs.journaledResult(runId, 'toolu_odd'))!;
      expect((back.content as Array<{ text: string }>)[0].text).toBe(odd);
      expect((await runs.journaledResults(runId)).get('toolu_odd')).toEqual(block);
      expect(await runs.recordResult(runId, { ...block, content: 'again' })).toEqual({ result: block, recorded: false });
    });

    it('refuses ids no store can hold with a TypeError, before writing', async () => {
      const runs = store();
      const { runId } = pausedRun();
      for (const id of ['toolu_\u0000x', 'toolu_\ud800']) {
        await expect(runs.recordResult(runId, result(id, 'x'))).rejects.toThrow(TypeError);
        await expect(runs.journaledResult(runId, id)).resolves.toBeUndefined();
      }
      for (const bad of ['run_\u0000x', 'run_\udc00']) await expect(runs.recordResult(bad, result('toolu_a', 'x'))).rejects.toThrow(TypeError);
      expect((await runs.journaledResults(runId)).size).toBe(0);
    });

    it('records exactly one of many concurrent writes for one id', async () => {
      const runs = store();
      const { runId } = pausedRun();
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => runs.recordResult(runId, result('toolu_a', `writer ${i}`))));
      const winners = answers.filter((a) => a.recorded);
      expect(winners).toHaveLength(1);
      for (const answer of answers) expect(answer.result).toEqual(winners[0].result);
      expect(await runs.journaledResult(runId, 'toolu_a')).toEqual(winners[0].result);
    });
  });
}
