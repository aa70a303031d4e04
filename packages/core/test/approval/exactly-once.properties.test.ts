import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { startScriptedServer, text, turn } from '@toolwright/core/testing';
import { refundTools } from './fixtures/refunds';
import { MODEL, checkRun, play, scenario, tally } from './exactly-once.property';

describe('exactly once across approval, crashes and resumes (property)', () => {
  it('runs every write at most once, never undecided, and answers every tool_use once in a valid transcript', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => checkRun(s, await play(s))),
      { numRuns: 1000 },
    );
    // Approval runs with eager reads were exercised, and approved and denied calls both, or the
    // rules above would hold vacuously.
    expect(tally.eagerBeforeApproval).toBeGreaterThan(0);
    expect(tally.approved).toBeGreaterThan(0);
    expect(tally.denied).toBeGreaterThan(0);
    expect(tally.deniedReadBeforeMore).toBeGreaterThan(0);
    expect(tally.sealedReadBeforeMore).toBeGreaterThan(0);
  });

  it('leaves a transcript the scripted server accepts when it is sent again', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const outcome = await play(s);
        checkRun(s, outcome);
        const server = await startScriptedServer({ turns: [turn('end_turn', text('you are welcome'))] });
        try {
          const client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
          const { tools } = refundTools(s.policy);
          const reply = await client.messages.create({
            model: MODEL,
            max_tokens: 64,
            tools: tools.definitions(),
            messages: [...outcome.messages, { role: 'user', content: 'thanks' }],
          });
          expect(reply.stop_reason).toBe('end_turn');
        } finally {
          await server.close();
        }
      }),
      { numRuns: 25 },
    );
  });
});
