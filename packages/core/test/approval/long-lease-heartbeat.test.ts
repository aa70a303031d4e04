import 'reflect-metadata';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { InMemoryRunStore, ToolContainer, runToolLoop } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { ShopTools, Timeline, shopManifest, sleep } from '../loop/fixtures/shop-tools';
import { faultyStore } from './fixtures/faulty-store';
import { replayClient } from './fixtures/refunds';

// An app that wants claims never to lapse sets a huge `claimLeaseMs` (90 days,
// Number.MAX_SAFE_INTEGER). The heartbeat renews every third of the lease, but a timer delay over
// 2^31-1 ms fires after 1 ms, so uncapped it would renew the claim every millisecond: one store
// round trip per ms, queued in front of every save and journal write.

const MODEL = 'claude-haiku-5-5';
const oneRead = (messages: readonly MessageParam[]) =>
  messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('Pronto.')) : turn('tool_use', toolUse('toolu_01', 'ler_estoque', { sku: 'X1' }));

describe('the heartbeat of a long lease', () => {
  test.each([90 * 24 * 3_600_000, Number.MAX_SAFE_INTEGER])('a lease of %p ms is renewed at most once while a 100 ms read runs, not every millisecond', async (lease) => {
    const store = faultyStore(new InMemoryRunStore({ claimLeaseMs: lease }), () => undefined);
    const tools = new ToolContainer({ manifest: shopManifest, providers: [new ShopTools(new Timeline(), sleep(100))] });

    const run = await runToolLoop({ client: replayClient(oneRead), model: MODEL, prompt: 'X1?', tools, store });

    expect(run.stopReason).toBe('end_turn');
    expect(store.calls.filter((c) => c === 'renew').length).toBeLessThanOrEqual(1);
  });
});
