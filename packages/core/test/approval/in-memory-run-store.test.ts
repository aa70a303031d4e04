import { InMemoryRunStore, type RunStoreOptions } from '@toolwright/core';
import { describeRunStoreConformance } from './run-store.conformance';
import { checkClaimAndJournalInterleavings } from './run-store.interleavings';

describe('InMemoryRunStore', () => {
  describeRunStoreConformance((options: RunStoreOptions) => new InMemoryRunStore(options));

  it('keeps at most one claimer and the first result under random interleavings (1,000 runs)', async () => {
    await checkClaimAndJournalInterleavings((options) => new InMemoryRunStore(options), 1_000);
  });

  it('keeps one store’s runs from another’s', async () => {
    const a = new InMemoryRunStore();
    const b = new InMemoryRunStore();
    await a.recordResult('run_1', { type: 'tool_result', tool_use_id: 'toolu_a', content: 'a' });
    expect(await b.journaledResult('run_1', 'toolu_a')).toBeUndefined();
  });
});
