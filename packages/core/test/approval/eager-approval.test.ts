import 'reflect-metadata';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { Matches } from 'class-validator';
import { Ctx, InMemoryRunStore, Param, Tool, ToolContainer, defineToolManifest, resumeToolLoop, streamToolLoop, type ToolContext, type ToolStreamEvent } from '@toolwright/core';
import { checkTranscript, text, toolUse, turn } from '@toolwright/core/testing';
import { answersById, replayClient } from './fixtures/refunds';

// DESIGN.md "Eager reads and approval" (issue 25): an app with approval tools keeps eager reads.
// A read starts early when nothing before it in the message is a write or needs approval; the
// approval of a call is decided as soon as its block is complete and valid; a call that needs
// approval keeps every call after it from starting until the decision.

const MODEL = 'claude-haiku-5-5';

class Vault {
  ran: string[] = [];
  asked: string[] = [];

  @Tool({ name: 'peek', effect: 'read' })
  async peek(@Param() key: string, @Ctx() ctx: ToolContext) {
    this.ran.push(ctx.toolUseId);
    return `value of ${key}`;
  }

  /** A read that needs approval when the key is secret. */
  @Tool({
    name: 'reveal',
    effect: 'read',
    approval(this: Vault, ctx: ToolContext, input: { key: string }) {
      this.asked.push(ctx.toolUseId);
      return input.key.startsWith('secret');
    },
  })
  async reveal(@Param() key: string, @Ctx() ctx: ToolContext) {
    this.ran.push(ctx.toolUseId);
    return `revealed ${key}`;
  }
}

class KeyInput {
  @Matches(/^[a-z-]+$/)
  key!: string;
}

const definition = (name: string) => ({
  name,
  description: `${name} a key.`,
  input_schema: { type: 'object' as const, properties: { key: { type: 'string', pattern: '^[a-z-]+$' } }, required: ['key'], additionalProperties: false },
});
const manifest = defineToolManifest(['peek', 'reveal'].map((name) => ({
  provider: Vault,
  method: name,
  definition: definition(name),
  effect: 'read' as const,
  inputClass: KeyInput,
  parameters: [{ kind: 'param' as const, property: 'key' }, { kind: 'ctx' as const }],
})));

function setup() {
  const vault = new Vault();
  return { vault, tools: new ToolContainer({ manifest, providers: [vault] }), store: new InMemoryRunStore() };
}

const batch = turn(
  'tool_use',
  toolUse('toolu_a', 'peek', { key: 'a' }),
  toolUse('toolu_open', 'reveal', { key: 'open' }),
  toolUse('toolu_b', 'peek', { key: 'b' }),
  toolUse('toolu_secret', 'reveal', { key: 'secret' }),
  toolUse('toolu_c', 'peek', { key: 'c' }),
);
const script = (messages: readonly MessageParam[]) => (messages.some((m) => m.role === 'assistant') ? turn('end_turn', text('done')) : batch);

async function streamed(options: Parameters<typeof streamToolLoop>[0]) {
  const stream = streamToolLoop(options);
  const events: ToolStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, run: await stream.result };
}

describe('eager reads in an app with approval tools', () => {
  it('starts the reads before the first call that needs approval, early; none from that call on; the pause lists it', async () => {
    const { vault, tools, store } = setup();
    const { events, run } = await streamed({ client: replayClient(script), model: MODEL, tools, store, prompt: 'x' });

    expect(run.stopReason).toBe('approval_required');
    expect(run.pending!.map((c) => c.toolUseId)).toEqual(['toolu_secret']);
    // A read whose approval was asked and not needed (toolu_open) does not hold the reads after it.
    const starts = events.filter((e) => e.type === 'tool_start');
    expect(starts.map((e) => e.type === 'tool_start' && [e.toolUseId, e.eager])).toEqual([['toolu_a', true], ['toolu_open', true], ['toolu_b', true]]);
    expect(vault.ran).toEqual(['toolu_a', 'toolu_open', 'toolu_b']);
    // Each call's approval was asked once, while its block was complete: not again for the pause.
    expect(vault.asked).toEqual(['toolu_open', 'toolu_secret']);
    // Every result of the early reads is journaled before the run was saved as pending.
    expect([...(await store.journaledResults(run.runId!)).keys()].sort()).toEqual(['toolu_a', 'toolu_b', 'toolu_open']);
  });

  it('after the decision, runs the rest once, answers the early reads from the journal, in a valid transcript', async () => {
    const { vault, tools, store } = setup();
    const { run } = await streamed({ client: replayClient(script), model: MODEL, tools, store, prompt: 'x' });
    const resumed = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId: run.runId!, decisions: { toolu_secret: { approve: true } } });

    expect(resumed.stopReason).toBe('end_turn');
    expect(vault.ran).toEqual(['toolu_a', 'toolu_open', 'toolu_b', 'toolu_secret', 'toolu_c']);
    const answers = answersById(resumed.messages);
    for (const id of ['toolu_a', 'toolu_open', 'toolu_b', 'toolu_secret', 'toolu_c']) expect(answers.get(id)).toHaveLength(1);
    expect(checkTranscript(resumed.messages)).toEqual([]);
  });

  it('a denied read answers "Denied by the user" and counts as a failed write: the call after it is not executed', async () => {
    const { vault, tools, store } = setup();
    const { run } = await streamed({ client: replayClient(script), model: MODEL, tools, store, prompt: 'x' });
    const resumed = await resumeToolLoop({ client: replayClient(script), model: MODEL, tools, store, runId: run.runId!, decisions: { toolu_secret: { approve: false } } });
    expect(vault.ran).toEqual(['toolu_a', 'toolu_open', 'toolu_b']);
    const answers = answersById(resumed.messages);
    expect(answers.get('toolu_secret')![0]).toMatchObject({ is_error: true, content: 'Denied by the user.' });
    expect(answers.get('toolu_c')![0]).toMatchObject({ is_error: true, content: expect.stringMatching(/^Not executed/) });
  });
});
