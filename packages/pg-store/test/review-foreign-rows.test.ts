import { PGlite } from '@electric-sql/pglite';
import { resumeToolLoop, runToolLoop } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { PostgresRunStore, migrate } from '@toolwright/pg-store';
import { answersById, refundTools, replayClient } from '../../core/test/approval/fixtures/refunds';

// Review: rows read back are "data from outside the process: checked, so a corrupt or foreign row
// fails loudly" (postgres-run-store.ts, `stored`). Two kinds of row pass that check today:
// - a run row whose state names another run than its `run_id` (`stored()` never compares them,
//   and the loop never checks that the run it loaded/claimed is the one it asked for), so a
//   resume of run A decides, runs and journals the pending calls of run B;
// - a journal row whose result is not the `tool_result` of its own `tool_use_id` (journaledResult(s)
//   and recordResult's conflict path return `JSON.parse` of the text unchecked), so a resume
//   runs a call the journal holds and answers another call twice.

const MODEL = 'claude-haiku-5-5';
let db: PGlite;

beforeAll(async () => {
  db = new PGlite();
  await migrate(db);
}, 180_000);

afterAll(async () => {
  await db.close();
});

const batch = (...ids: string[]) => turn('tool_use', ...ids.map((id, i) => toolUse(id, 'refund', { order: 'A-1001', amount: 50 + i })));

describe('review: a run row whose state names another run', () => {
  it('load(A) refuses a row stored under A whose state is run B, instead of returning run B', async () => {
    const store = new PostgresRunStore(db);
    const { tools } = refundTools('writes');
    const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : batch('toolu_b1'));
    const b = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    await db.query(
      `INSERT INTO toolwright_runs (run_id, revision, state, status, lease_expires_at) SELECT 'run_copy', revision, state, status, lease_expires_at FROM toolwright_runs WHERE run_id = $1`,
      [b.runId],
    );

    const loaded = await store.load('run_copy').then(
      (run) => ({ runId: run?.state.runId }),
      (error: Error) => ({ refused: error.name }),
    );
    // Fails today: { runId: <run B's id> }.
    expect(loaded).toEqual({ refused: 'RunStateError' });
  }, 120_000);

  it('a resume of A does not run (nor journal under B) the pending write of run B', async () => {
    const store = new PostgresRunStore(db);
    const { tools, provider } = refundTools('writes');
    const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : batch('toolu_b2'));
    const b = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    await db.query(
      `INSERT INTO toolwright_runs (run_id, revision, state, status, lease_expires_at) SELECT 'run_copy2', revision, state, status, lease_expires_at FROM toolwright_runs WHERE run_id = $1`,
      [b.runId],
    );

    const outcome = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId: 'run_copy2', decisions: { toolu_b2: { approve: true } } }).then(
      () => 'resolved',
      (error: Error) => error.name,
    );

    // Fails today: run B's write ran through a resume of another run id, and B's journal now holds it.
    expect({ ran: provider.ran, journaledUnderB: [...(await store.journaledResults(b.runId!)).keys()] }).toEqual({ ran: [], journaledUnderB: [] });
    expect(outcome).not.toBe('resolved');
  }, 120_000);
});

describe('review: a journal row that is not the result of its own tool_use_id', () => {
  it('journaledResults refuses a row whose result names another call', async () => {
    const store = new PostgresRunStore(db);
    const { tools } = refundTools('writes');
    const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : batch('toolu_x1', 'toolu_y1'));
    const run = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    await db.query(`INSERT INTO toolwright_results (run_id, tool_use_id, result) VALUES ($1, 'toolu_x1', $2)`, [
      run.runId,
      JSON.stringify({ type: 'tool_result', tool_use_id: 'toolu_y1', content: 'from another call' }),
    ]);

    const read = await store.journaledResults(run.runId!).then(
      (map) => ({ key: [...map.keys()][0], resultFor: map.get('toolu_x1')?.tool_use_id }),
      (error: Error) => ({ refused: error.name }),
    );
    // Fails today: { key: 'toolu_x1', resultFor: 'toolu_y1' }.
    expect(read).not.toEqual({ key: 'toolu_x1', resultFor: 'toolu_y1' });
  }, 120_000);

  it('a resume over such a row neither runs the journaled call nor answers another call twice', async () => {
    const store = new PostgresRunStore(db);
    const { tools, provider } = refundTools('writes');
    const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : batch('toolu_x2', 'toolu_y2'));
    const run = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' });
    await db.query(`INSERT INTO toolwright_results (run_id, tool_use_id, result) VALUES ($1, 'toolu_x2', $2)`, [
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

    // Fails today: toolu_x2 (journaled) runs, and the transcript answers toolu_y2 twice and toolu_x2 never.
    expect(outcome.ran).not.toContain('toolu_x2');
    expect(outcome).not.toHaveProperty('answers', [['toolu_y2', 2]]);
  }, 120_000);
});
