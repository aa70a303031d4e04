import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { RunClaimError, RunConflictError, resumeToolLoop, runToolLoop } from '@toolwright/core';
import { checkTranscript, text, toolUse, turn } from '@toolwright/core/testing';
import { PostgresRunStore, migrate } from '@toolwright/pg-store';
import { answersById, refundTools, replayClient } from '../../core/test/approval/fixtures/refunds';

const dataDir = mkdtempSync(join(tmpdir(), 'toolwright-pg-resume-'));
let db: PGlite;

beforeAll(async () => {
  db = new PGlite(dataDir);
  await migrate(db);
}, 180_000);

afterAll(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const refund = turn('tool_use', toolUse('toolu_refund', 'refund', { order: 'A-1001', amount: 50 }));
const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('refunded')) : refund);

describe('resumeToolLoop on one database shared by two instances', () => {
  it('runs the approved write once when two instances resume the same run at once', async () => {
    // Two app instances: their own store object, container and tools; one database.
    const first = { store: new PostgresRunStore(db), ...refundTools('writes') };
    const second = { store: new PostgresRunStore(db), ...refundTools('writes') };
    const client = replayClient(script);
    const paused = await runToolLoop({ client, model: 'claude-haiku-5-5', tools: first.tools, store: first.store, prompt: 'refund A-1001' });
    expect(paused.stopReason).toBe('approval_required');

    const decisions = { toolu_refund: { approve: true } };
    const outcomes = await Promise.allSettled(
      [first, second].map((instance) => resumeToolLoop({ client, model: 'claude-haiku-5-5', tools: instance.tools, store: instance.store, runId: paused.runId!, decisions })),
    );

    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const loser = (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason;
    expect(loser instanceof RunClaimError || loser instanceof RunConflictError).toBe(true);
    expect([...first.provider.ran, ...second.provider.ran]).toEqual(['toolu_refund']);
    const done = (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<Awaited<ReturnType<typeof resumeToolLoop>>>).value;
    expect(done.text).toBe('refunded');
    expect(answersById(done.messages).get('toolu_refund')).toHaveLength(1);
    expect(checkTranscript(done.messages)).toEqual([]);

    // A third try, on either instance, finds the run finished and runs nothing.
    await expect(
      resumeToolLoop({ client, model: 'claude-haiku-5-5', tools: second.tools, store: second.store, runId: paused.runId!, decisions }),
    ).rejects.toMatchObject({ problem: 'finished_run' });
    expect([...first.provider.ran, ...second.provider.ran]).toEqual(['toolu_refund']);
  }, 60_000);
});
