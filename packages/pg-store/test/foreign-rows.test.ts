import { PGlite } from '@electric-sql/pglite';
import { resumeToolLoop, runToolLoop } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { PostgresRunStore, migrate } from '@toolwright/pg-store';
import { refundTools, replayClient } from '../../core/test/approval/fixtures/refunds';

// Rows read back are data from outside the process: a run row copied or restored under the wrong
// id must be refused (RunStateError naming the run), never used: a run row whose state is another
// run's would have a resume of run A decide, run and journal the pending calls of run B.

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

describe('a run row whose state names another run', () => {
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

    expect({ ran: provider.ran, journaledUnderB: [...(await store.journaledResults(b.runId!)).keys()] }).toEqual({ ran: [], journaledUnderB: [] });
    expect(outcome).not.toBe('resolved');
  }, 120_000);
});
