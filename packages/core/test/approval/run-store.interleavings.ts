import fc from 'fast-check';
import type { RecordedResult, StoredRun } from '@toolwright/core';
import type { MakeRunStore } from './run-store.conformance';
import { pausedRun } from './run-states';

const IDS = ['toolu_a', 'toolu_b', 'toolu_c'];
const LEASE_MS = 1_000;

/** `lapse` moves the clock past any claim, as when a holder crashed and stopped writing. */
type Step = { kind: 'claim' } | { kind: 'release' } | { kind: 'lapse' } | { kind: 'record'; id: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'claim' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'release' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'lapse' as const }) },
  { weight: 3, arbitrary: fc.constantFrom(...IDS).map((id) => ({ kind: 'record' as const, id })) },
);

/** A successful write to the run, with how many lapses had happened when it started and ended. */
interface RunWrite {
  kind: 'claim' | 'release';
  actor: number;
  revision: number;
  lapsesBefore: number;
  lapsesAfter: number;
}

/**
 * Actors (resumes of one run, on one store) claim, release, record results and let claims
 * lapse, in interleavings chosen by fast-check's scheduler. Guarantees checked:
 * - at most one claimer: ordered by revision, a release directly follows its actor's own claim
 *   (nobody wrote in between), a claim directly after another claim needs a lapse in between,
 *   and a holder's release is refused only when a lapse let someone else in;
 * - first write wins: per tool_use_id exactly one write is recorded, every writer gets that
 *   result back, and every read after any write sees it.
 */
export async function checkClaimAndJournalInterleavings(makeStore: MakeRunStore, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(step, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 4 }), fc.scheduler(), async (scripts, s) => {
      let now = 1_700_000_000_000;
      let lapses = 0;
      const runs = makeStore({ claimLeaseMs: LEASE_MS, clock: () => now });
      const created = await runs.create(pausedRun(IDS));
      const runId = created.state.runId;
      const writes: RunWrite[] = [];
      const recorded = new Map<string, RecordedResult[]>();
      const reads = new Map<string, unknown[]>();

      const act = async (actor: number, script: Step[]) => {
        let held: { run: StoredRun; lapsesBefore: number } | undefined;
        for (const [i, next] of script.entries()) {
          await s.schedule(Promise.resolve(), `actor ${actor} step ${i}: ${next.kind}`);
          const lapsesBefore = lapses;
          if (next.kind === 'lapse') {
            now += LEASE_MS;
            lapses += 1;
          } else if (next.kind === 'claim' && !held) {
            try {
              const run = await runs.claim(runId);
              held = { run, lapsesBefore };
              writes.push({ kind: 'claim', actor, revision: run.revision, lapsesBefore, lapsesAfter: lapses });
            } catch (error) {
              expect(error).toMatchObject({ name: 'RunClaimError', problem: 'claimed' });
            }
          } else if (next.kind === 'release' && held) {
            try {
              const released = await runs.save({ ...held.run.state, status: 'pending' }, held.run.revision);
              writes.push({ kind: 'release', actor, revision: released.revision, lapsesBefore, lapsesAfter: lapses });
            } catch (error) {
              expect(error).toMatchObject({ name: 'RunConflictError', problem: 'revision' });
              expect(lapses).toBeGreaterThan(held.lapsesBefore);
            }
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
        const previous = writes[i - 1];
        if (write.kind === 'release') {
          expect(previous).toMatchObject({ kind: 'claim', actor: write.actor });
        } else if (previous?.kind === 'claim') {
          expect(write.lapsesAfter).toBeGreaterThan(previous.lapsesBefore);
        }
      });

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
    { numRuns },
  );
}
