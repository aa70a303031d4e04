import fc from 'fast-check';
import type { RecordedResult, RunStore, StoredRun } from '@toolwright/core';
import { pausedRun } from './run-states';

const IDS = ['toolu_a', 'toolu_b', 'toolu_c'];

type Step = { kind: 'claim' } | { kind: 'release' } | { kind: 'record'; id: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ kind: 'claim' as const }),
  fc.constant({ kind: 'release' as const }),
  fc.constantFrom(...IDS).map((id) => ({ kind: 'record' as const, id })),
);

/** A run's writes, as each actor saw them succeed. */
interface RunWrite {
  kind: 'claim' | 'release';
  actor: number;
  revision: number;
}

/**
 * Actors (resumes of one run, on one store) claim, record results and release in random
 * interleavings chosen by fast-check's scheduler. Guarantees checked:
 * - at most one claimer: ordered by revision, successful claims and releases alternate, each
 *   release by the actor of the claim before it, and a holder's release never loses to a write
 *   by anyone else;
 * - first write wins: per tool_use_id exactly one write is recorded, every writer gets that
 *   result back, and every read after any write sees it.
 */
export async function checkClaimAndJournalInterleavings(store: () => RunStore, numRuns: number, seed: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(step, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 4 }), fc.scheduler(), async (scripts, s) => {
      const runs = store();
      const created = await runs.create(pausedRun(IDS));
      const runId = created.state.runId;
      const writes: RunWrite[] = [];
      const recorded = new Map<string, RecordedResult[]>();
      const reads = new Map<string, unknown[]>();
      const claimRefusals: unknown[] = [];

      const act = async (actor: number, script: Step[]) => {
        let held: StoredRun | undefined;
        for (const [i, next] of script.entries()) {
          await s.schedule(Promise.resolve(), `actor ${actor} step ${i}: ${next.kind}`);
          if (next.kind === 'claim' && !held) {
            try {
              held = await runs.claim(runId);
              writes.push({ kind: 'claim', actor, revision: held.revision });
            } catch (error) {
              claimRefusals.push(error);
            }
          } else if (next.kind === 'release' && held) {
            const released = await runs.save({ ...held.state, status: 'pending' }, held.revision);
            writes.push({ kind: 'release', actor, revision: released.revision });
            held = undefined;
          } else if (next.kind === 'record') {
            const answer = await runs.recordResult(runId, { type: 'tool_result', tool_use_id: next.id, content: `actor ${actor} step ${i}` });
            recorded.set(next.id, [...(recorded.get(next.id) ?? []), answer]);
            reads.set(next.id, [...(reads.get(next.id) ?? []), await runs.journaledResult(runId, next.id)]);
          }
        }
      };
      await s.waitFor(Promise.all(scripts.map((script, actor) => act(actor, script))));

      writes.sort((a, b) => a.revision - b.revision);
      writes.forEach((write, i) => {
        expect(write.revision).toBe(created.revision + 1 + i);
        expect(write.kind).toBe(i % 2 === 0 ? 'claim' : 'release');
        if (write.kind === 'release') expect(write.actor).toBe(writes[i - 1].actor);
      });
      for (const refusal of claimRefusals) expect(refusal).toMatchObject({ name: 'RunClaimError', problem: 'claimed' });

      const journal = await runs.journaledResults(runId);
      expect([...journal.keys()].sort()).toEqual([...recorded.keys()].sort());
      for (const [id, answers] of recorded) {
        const winners = answers.filter((answer) => answer.recorded);
        expect(winners).toHaveLength(1);
        for (const answer of answers) expect(answer.result).toEqual(winners[0].result);
        for (const read of reads.get(id)!) expect(read).toEqual(winners[0].result);
        expect(journal.get(id)).toEqual(winners[0].result);
      }
    }),
    { numRuns, seed },
  );
}
