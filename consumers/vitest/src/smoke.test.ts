import { expect, test } from 'vitest';
import { smoke } from './smoke';

test('a conversation through the real SDK against the scripted server', async () => {
  const run = await smoke();
  expect(run.stopReason).toBe('end_turn');
});
