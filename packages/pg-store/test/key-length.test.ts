import { MAX_KEY_LENGTH, ToolLoopError, runToolLoop } from '@toolwright/core';
import { text, toolUse, turn } from '@toolwright/core/testing';
import { PostgresRunStore } from '@toolwright/pg-store';
import { embeddedDatabase } from './support/embedded-database';
import { refundTools, replayClient } from '../../core/test/approval/fixtures/refunds';
import { pausedRun } from '../../core/test/approval/run-states';

// A journal row is keyed by (run id, tool_use_id) under a btree index, which holds about 2,700
// bytes an entry. A longer key fails the journal write only after the call ran, on every attempt,
// so the write would run again on each resume: keys are bounded (MAX_KEY_LENGTH) and a longer
// tool_use id is refused before anything runs.

const MODEL = 'claude-haiku-5-5';
const database = embeddedDatabase();

describe('keys the journal index takes', () => {
  it('the longest run id and tool_use id, in characters of three UTF-8 bytes, are journaled', async () => {
    const store = new PostgresRunStore(database());
    const longest = (prefix: string) => prefix + '€'.repeat(MAX_KEY_LENGTH - prefix.length);
    const run = pausedRun([longest('toolu_')], longest('run_'));
    await store.create(run);
    const result = { type: 'tool_result' as const, tool_use_id: run.pending[0].toolUseId, content: 'done' };

    await expect(store.recordResult(run.runId, result)).resolves.toEqual({ result, recorded: true });
    expect([...(await store.journaledResults(run.runId)).keys()]).toEqual([run.pending[0].toolUseId]);
  }, 120_000);

  it('a tool_use id one character longer is refused before the write runs, naming its length', async () => {
    const id = 'toolu_' + 'x'.repeat(MAX_KEY_LENGTH - 5);
    const script = (messages: readonly { role: string }[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('ok')) : turn('tool_use', toolUse(id, 'refund', { order: 'A-1001', amount: 50 })));
    const store = new PostgresRunStore(database());
    const { tools, provider } = refundTools('none');

    const error = await runToolLoop({ client: replayClient(script), model: MODEL, tools, store, prompt: 'refund' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ToolLoopError);
    expect((error as Error).message).toContain(`is a tool_use whose id is ${MAX_KEY_LENGTH + 1} characters long, more than the ${MAX_KEY_LENGTH} a key may have`);
    expect(provider.ran).toEqual([]);
  }, 120_000);
});
