import { InMemoryRunStore, type RunStoreOptions } from '@toolwright/core';
import { describeRunStoreConformance } from './run-store.conformance';
import { checkClaimAndJournalInterleavings } from './run-store.interleavings';

describe('InMemoryRunStore', () => {
  describeRunStoreConformance((options: RunStoreOptions) => new InMemoryRunStore(options));

  it('keeps at most one claimer and the first result under random interleavings (1,000 runs)', async () => {
    await checkClaimAndJournalInterleavings((options) => new InMemoryRunStore(options), 1_000);
  });

  it('refuses a lease or a clock it cannot use, naming the store and the option', () => {
    for (const claimLeaseMs of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new InMemoryRunStore({ claimLeaseMs })).toThrow(
        new RangeError(`InMemoryRunStore: claimLeaseMs must be a whole number of milliseconds >= 1, got ${claimLeaseMs}.`),
      );
    }
    expect(() => new InMemoryRunStore({ clock: 1_700_000_000_000 as unknown as () => number })).toThrow(
      new TypeError('InMemoryRunStore: clock must be a function returning milliseconds since the epoch (like Date.now).'),
    );
    expect(new InMemoryRunStore({ claimLeaseMs: 1 }).claimLeaseMs).toBe(1);
  });

  it('keeps one store’s runs from another’s', async () => {
    const a = new InMemoryRunStore();
    const b = new InMemoryRunStore();
    await a.recordResult('run_1', { type: 'tool_result', tool_use_id: 'toolu_a', content: 'a' });
    expect(await b.journaledResult('run_1', 'toolu_a')).toBeUndefined();
  });
});
