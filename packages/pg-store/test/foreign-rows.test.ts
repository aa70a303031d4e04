import { resumeToolLoop, runToolLoop } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { PostgresRunStore } from '@toolwright/pg-store';
import { embeddedDatabase } from './support/embedded-database';
import { answersById, refundTools, replayClient } from '../../core/test/approval/fixtures/refunds';

// Rows read back are data from outside the process: a row copied or restored under the wrong id,
// or a journal row holding another call's result, must be refused (RunStateError naming the run
// and call), never used: a run row whose state is another run's would have a resume of run A
// decide, run and journal the pending calls of run B; a journal row that is not its own call's
// result would leave that call to run again and answer another call twice.

const MODEL = 'claude-haiku-5-5';
const database = embeddedDatabase();

const batch = (...ids: string[]) => turn('tool_use', ...ids.map((id, i) => toolUse(id, 'refund', { order: 'A-1001', amount: 50 + i })));

describe('a run row whose state names another run', () => {
  it('load(A) refuses a row stored under A whose state is run B, instead of returning run B', async () => {
    const store = new PostgresRunStore(database());
    const { tools } = refundTools('writes');
    const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : batch('toolu_b1'));
    const b = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    await database().query(
      `INSERT INTO toolwright_runs (run_id, revision, state, status, lease_expires_at) SELECT 'run_copy', revision, state, status, lease_expires_at FROM toolwright_runs WHERE run_id = $1`,
      [b.runId],
    );

    const loaded = await store.load('run_copy').then(
      (run) => ({ runId: run?.state.runId }),
      (error: Error) => ({ refused: error.name, message: error.message }),
    );
    // The message names both runs, the table and what to do.
    expect(loaded).toEqual({
      refused: 'RunStateError',
      message:
        `PostgresRunStore: the row of run "run_copy" holds the state of run ${JSON.stringify(b.runId)} (copied or restored under the wrong id?). ` +
        'Nothing of it ran. Fix or remove that row of toolwright_runs before resuming "run_copy".',
    });
  }, 120_000);

  it('a resume of A does not run (nor journal under B) the pending write of run B', async () => {
    const store = new PostgresRunStore(database());
    const { tools, provider } = refundTools('writes');
    const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : batch('toolu_b2'));
    const b = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    await database().query(
      `INSERT INTO toolwright_runs (run_id, revision, state, status, lease_expires_at) SELECT 'run_copy2', revision, state, status, lease_expires_at FROM toolwright_runs WHERE run_id = $1`,
      [b.runId],
    );

    const outcome = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId: 'run_copy2', decisions: { toolu_b2: { approve: true } } }).then(
      () => 'resolved',
      (error: Error) => error.name,
    );

    expect({ ran: provider.ran, journaledUnderB: [...(await store.journaledResults(b.runId!)).keys()] }).toEqual({ ran: [], journaledUnderB: [] });
    expect(outcome).not.toBe('resolved');
  }, 120_000);
});

describe('a journal row that is not the result of its own tool_use_id', () => {
  it('journaledResults refuses a row whose result names another call', async () => {
    const store = new PostgresRunStore(database());
    const { tools } = refundTools('writes');
    const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : batch('toolu_x1', 'toolu_y1'));
    const run = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    await database().query(`INSERT INTO toolwright_results (run_id, tool_use_id, result) VALUES ($1, 'toolu_x1', $2)`, [
      run.runId,
      JSON.stringify({ type: 'tool_result', tool_use_id: 'toolu_y1', content: 'from another call' }),
    ]);

    const read = await store.journaledResults(run.runId!).then(
      (map) => ({ key: [...map.keys()][0], resultFor: map.get('toolu_x1')?.tool_use_id }),
      (error: Error) => ({ refused: error.name }),
    );
    expect(read).toEqual({ refused: 'RunStateError' });
  }, 120_000);

  it('a resume over such a row neither runs the journaled call nor answers another call twice', async () => {
    const store = new PostgresRunStore(database());
    const { tools, provider } = refundTools('writes');
    const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : batch('toolu_x2', 'toolu_y2'));
    const run = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    await database().query(`INSERT INTO toolwright_results (run_id, tool_use_id, result) VALUES ($1, 'toolu_x2', $2)`, [
      run.runId,
      JSON.stringify({ type: 'tool_result', tool_use_id: 'toolu_y2', content: 'from another call' }),
    ]);

    const outcome = await resumeToolLoop({
      client: replayClient(script),
      model: MODEL,
      tools,
      store,
      runId: run.runId!,
      decisions: { toolu_x2: { approve: true }, toolu_y2: { approve: true } },
    }).then(
      (result) => ({ ran: provider.ran, answers: [...answersById(result.messages)].map(([id, list]) => [id, list.length]) }),
      (error: Error) => ({ ran: provider.ran, refused: error.name }),
    );

    expect(outcome.ran).not.toContain('toolu_x2');
    expect(outcome).not.toHaveProperty('answers', [['toolu_y2', 2]]);
    expect(outcome).toEqual({ ran: [], refused: 'RunStateError' });
  }, 120_000);

  it.each([
    ['null', 'null'],
    ['not JSON', '{"type": "tool_result", '],
  ])('a %s row is refused as a RunStateError naming the run and the call, on every read path', async (_kind, row) => {
    const store = new PostgresRunStore(database());
    const { tools } = refundTools('writes');
    const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : batch('toolu_n1'));
    const run = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    const runId = run.runId!;
    await database().query(`INSERT INTO toolwright_results (run_id, tool_use_id, result) VALUES ($1, 'toolu_n1', $2)`, [runId, row]);

    const reads = [
      store.journaledResults(runId),
      store.journaledResult(runId, 'toolu_n1'),
      store.recordResult(runId, { type: 'tool_result', tool_use_id: 'toolu_n1', content: 'mine' }),
    ];
    for (const read of reads) {
      const error = await read.then(() => undefined, (e: Error) => e);
      expect(error).toMatchObject({ name: 'RunStateError', problem: 'malformed' });
      expect(error!.message).toContain(JSON.stringify(runId));
      expect(error!.message).toContain('"toolu_n1"');
    }
  }, 120_000);
});

describe('a run row edited into something the loop cannot read', () => {
  const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : batch('toolu_e1'));

  it('a content block that is null is refused at load, naming the run and the block, before anything is claimed', async () => {
    const store = new PostgresRunStore(database());
    const { tools, provider } = refundTools('writes');
    const paused = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    const runId = paused.runId!;
    await database().query(`UPDATE toolwright_runs SET state = jsonb_set(state::jsonb, '{messages,0,content}', '[null]')::text WHERE run_id = $1`, [runId]);

    const error = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId, decisions: { toolu_e1: { approve: true } } }).catch((e: Error) => e);

    expect(error).toMatchObject({ name: 'RunStateError', problem: 'malformed' });
    expect((error as Error).message).toContain('messages[0].content[0] must be a content block');
    expect(provider.ran).toEqual([]);
    // Nothing claimed: the row is as it was, unleased, so once fixed it resumes at once.
    const row = await database().query<{ status: string; lease_expires_at: unknown }>('SELECT status, lease_expires_at FROM toolwright_runs WHERE run_id = $1', [runId]);
    expect(row.rows[0]).toEqual({ status: 'pending', lease_expires_at: null });
  }, 120_000);

  it('a state column that is not JSON is refused as malformed (a retry cannot help), not as a store failure', async () => {
    const store = new PostgresRunStore(database());
    const { tools } = refundTools('writes');
    const paused = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    const runId = paused.runId!;
    await database().query(`UPDATE toolwright_runs SET state = '{"version": 2, ' WHERE run_id = $1`, [runId]);

    const error = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId, decisions: { toolu_e1: { approve: true } } }).catch((e: Error) => e);

    expect(error).toMatchObject({ name: 'RunStateError', problem: 'malformed' });
    expect((error as Error).message).toMatch(new RegExp(`^PostgresRunStore: the row of run "${runId}" does not hold JSON in its state column \\(.+\\)\\. Nothing of it ran\\.`));

    await database().query(`UPDATE toolwright_runs SET state = '5' WHERE run_id = $1`, [runId]);
    await expect(store.load(runId)).rejects.toMatchObject({
      name: 'RunStateError',
      problem: 'malformed',
      message: expect.stringContaining(`the row of run "${runId}" holds a number in its state column, not a run state`),
    });
  }, 120_000);
});
