import { Pool } from 'pg';
import { resumeToolLoop, runToolLoop } from '@toolwright/core';
import { checkTranscript, text, toolUse, turn } from '@toolwright/core/testing';
import { PostgresRunStore, migrate } from '@toolwright/pg-store';
import { answersById, refundTools, replayClient } from '../../core/test/approval/fixtures/refunds';
import { describeOnPostgres, testPool } from './support/real-postgres';

const refund = turn('tool_use', toolUse('toolu_refund', 'refund', { order: 'A-1001', amount: 50 }));
const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('refunded')) : refund);

describeOnPostgres('resumeToolLoop on one PostgreSQL server shared by two instances', (server) => {
  const pools: Pool[] = [];
  /** An app instance: its own pool of connections, store object, container and tools. */
  const instance = () => {
    const pool = testPool(new Pool({ ...server().connection, max: 2 }));
    pools.push(pool);
    return { store: new PostgresRunStore(pool), ...refundTools('writes') };
  };

  beforeAll(async () => {
    const pool = testPool(new Pool({ ...server().connection, max: 1 }));
    pools.push(pool);
    await migrate(pool);
  });

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
  });

  it('runs the approved write once when two instances resume the same run at once', async () => {
    const [first, second] = [instance(), instance()];
    const client = replayClient(script);
    const paused = await runToolLoop({ client, model: 'claude-haiku-5-5', tools: first.tools, store: first.store, prompt: 'refund A-1001' });
    expect(paused.stopReason).toBe('approval_required');

    const decisions = { toolu_refund: { approve: true } };
    const outcomes = await Promise.allSettled(
      [first, second].map((instance) => resumeToolLoop({ client, model: 'claude-haiku-5-5', tools: instance.tools, store: instance.store, runId: paused.runId!, decisions })),
    );

    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const loser = (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason;
    // What the loser hears depends on what it read and how far the winner had got by then:
    // - still pending, then its claim met the winner's: claimed, moved on (revision) or finished;
    // - running, the write already saved (nothing pending any more): not_pending;
    // - finished: finished_run.
    const heard = `${loser.name}:${loser.problem}`;
    expect(['RunClaimError:claimed', 'RunConflictError:revision', 'RunClaimError:finished', 'DecisionError:not_pending', 'DecisionError:finished_run']).toContain(heard);
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
