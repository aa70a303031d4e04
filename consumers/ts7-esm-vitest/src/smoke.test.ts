import { expect, test } from 'vitest';
import { smoke } from './smoke.js';

test('a conversation through the real SDK against the scripted server, on TypeScript 7 and ESM', async () => {
  const run = await smoke();
  expect(run.stopReason).toBe('end_turn');
});
