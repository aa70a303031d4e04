import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `condition` every `everyMs` until it holds; rejects after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs: number, everyMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
