import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import {
  DecisionError,
  InMemoryRunStore,
  RunClaimError,
  RunConflictError,
  RunStateError,
  resumeToolLoop,
  runToolLoop,
  streamResumeToolLoop,
  streamToolLoop,
  type ToolStream,
  type ToolStreamEvent,
} from '@toolwright/core';
import { checkTranscript, text, toolUse, turn, type ScriptedReply } from '@toolwright/core/testing';
import { answersById, refundTools, replayClient, resultText } from './fixtures/refunds';

const MODEL = 'claude-haiku-5-5';
const SECRET = 'a-test-secret-of-at-least-32-bytes!!';

/** Turn n (counted by the assistant messages so far) is `turns[n]`; the model says "done" after them. */
function script(...turns: ScriptedReply[]) {
  return (messages: readonly MessageParam[]) => turns[messages.filter((m) => m.role === 'assistant').length] ?? turn('end_turn', text('done'));
}

const batch = turn(
  'tool_use',
  toolUse('toolu_read', 'look_up', { order: 'A-1001' }),
  toolUse('toolu_refund', 'refund', { order: 'A-1001', amount: 50 }),
  toolUse('toolu_note', 'note', { order: 'A-1001' }),
);

/** `batch` run under approval: 'writes' in a fresh store: paused on the refund, ready to resume. */
async function pausedRefund(options: { owner?: string; secret?: string } = {}) {
  const { provider, tools } = refundTools('writes');
  const store = new InMemoryRunStore();
  const client = replayClient(script(batch));
  const paused = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001', ...options });
  return { provider, tools, store, client, paused };
}

describe('approval: pause', () => {
  it("pauses a batch with a write under approval: 'writes', runs nothing of it, and saves the run", async () => {
    const { provider, tools } = refundTools('writes');
    const store = new InMemoryRunStore();
    const run = await runToolLoop({ client: replayClient(script(batch)), model: MODEL, tools, store, prompt: 'refund A-1001' });

    expect(run.stopReason).toBe('approval_required');
    expect(run.pending).toEqual([{ toolUseId: 'toolu_refund', toolName: 'refund', input: { order: 'A-1001', amount: 50 }, effect: 'write' }]);
    expect(provider.ran).toEqual([]);
    expect(run.text).toBe('Waiting for approval: refund.');
    const saved = await store.load(run.runId!);
    expect(saved?.state).toMatchObject({ status: 'pending', pending: run.pending, used: { turns: 1 } });
    expect(saved?.state.messages).toEqual(run.messages);
  });

  it('does not ask about a call its guard refuses or whose input is invalid: the batch runs and answers them', async () => {
    const { provider, tools } = refundTools('writes');
    const refused = turn('tool_use', toolUse('toolu_13', 'refund', { order: 'A-1001', amount: 13 }), toolUse('toolu_bad', 'refund', { order: 'nope', amount: 5 }));
    const run = await runToolLoop({ client: replayClient(script(refused)), model: MODEL, tools, store: new InMemoryRunStore(), prompt: 'x' });

    expect(run.stopReason).toBe('end_turn');
    const answers = answersById(run.messages);
    expect(resultText(answers.get('toolu_13')![0])).toBe('Not allowed: refund refused this call.');
    expect(answers.get('toolu_bad')![0].is_error).toBe(true);
    expect(provider.ran).toEqual([]);
  });

  it("lets @Tool({ approval }) override the policy: false exempts a write, a predicate decides from the input", async () => {
    const { provider, tools } = refundTools('none');
    const calls = turn('tool_use', toolUse('toolu_keep', 'wipe', { order: 'A-0000' }), toolUse('toolu_wipe', 'wipe', { order: 'A-1001' }));
    const store = new InMemoryRunStore();
    const run = await runToolLoop({ client: replayClient(script(calls)), model: MODEL, tools, store, prompt: 'x' });
    expect(run.pending?.map((c) => c.toolUseId)).toEqual(['toolu_wipe']);

    const exempt = refundTools('writes');
    const noted = await runToolLoop({ client: replayClient(script(turn('tool_use', toolUse('toolu_n', 'note', { order: 'A-1001' })))), model: MODEL, tools: exempt.tools, store, prompt: 'x' });
    expect(noted.stopReason).toBe('end_turn');
    expect(exempt.provider.ran).toEqual(['toolu_n']);
    expect(provider.ran).toEqual([]);
  });

  it("passes the run's auth to an approval predicate: an admin's wipe runs, anyone else's waits", async () => {
    const calls = turn('tool_use', toolUse('toolu_wipe', 'wipe', { order: 'A-1001' }));
    const asAdmin = refundTools('none');
    const admin = await runToolLoop({ client: replayClient(script(calls)), model: MODEL, tools: asAdmin.tools, store: new InMemoryRunStore(), prompt: 'x', context: { auth: { role: 'admin' } } });
    expect(admin.stopReason).toBe('end_turn');
    expect(asAdmin.provider.ran).toEqual(['toolu_wipe']);

    const asClerk = refundTools('none');
    const clerk = await runToolLoop({ client: replayClient(script(calls)), model: MODEL, tools: asClerk.tools, store: new InMemoryRunStore(), prompt: 'x', context: { auth: { role: 'clerk' } } });
    expect(clerk.stopReason).toBe('approval_required');
    expect(asClerk.provider.ran).toEqual([]);
  });

  it('answers a call whose approval predicate throws as an internal error, without asking, and halts the writes after it', async () => {
    const errors: unknown[] = [];
    const { provider, tools } = refundTools('none', undefined, { error: (...details) => void errors.push(details), warn: () => undefined });
    const calls = turn('tool_use', toolUse('toolu_w', 'wipe', { order: 'A-9999' }), toolUse('toolu_n', 'note', { order: 'A-1001' }));
    const store = new InMemoryRunStore();
    const run = await runToolLoop({ client: replayClient(script(calls)), model: MODEL, tools, store, prompt: 'x' });

    expect(run.stopReason).toBe('end_turn');
    const answers = answersById(run.messages);
    expect(answers.get('toolu_w')).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_w', content: 'Internal error in wipe. It was logged; do not retry with the same input.', is_error: true }]);
    expect(resultText(answers.get('toolu_n')![0])).toBe('Not executed: an earlier call in this batch (wipe, toolu_w) failed.');
    expect(provider.ran).toEqual([]);
    expect(errors).toHaveLength(1);
    // Every answer is journaled, the halted one too, so a replay of the batch answers it the same way.
    const journal = await store.journaledResults(run.runId!);
    expect([...journal.keys()].sort()).toEqual(['toolu_n', 'toolu_w']);
    expect(journal.get('toolu_n')).toEqual(answers.get('toolu_n')![0]);
  });

  it('refuses to start a run that may need approval without a store to pause in', async () => {
    const { tools } = refundTools('writes');
    await expect(runToolLoop({ client: replayClient(script(batch)), model: MODEL, tools, prompt: 'x' })).rejects.toThrow(/pass a `store`/);
  });

  it('streams approval_required before done, with the same result; only the read ahead of the approval call started, early', async () => {
    const { provider, tools } = refundTools('writes');
    const store = new InMemoryRunStore();
    const stream = streamToolLoop({ client: replayClient(script(batch)), model: MODEL, tools, store, prompt: 'x' });
    const events: ToolStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const run = await stream.result;
    expect(run.stopReason).toBe('approval_required');
    expect(events.filter((e) => e.type === 'tool_start')).toEqual([expect.objectContaining({ toolUseId: 'toolu_read', eager: true })]);
    const types = events.map((e) => e.type);
    // The turn ends (a UI closes its message) before the run says it waits for a person.
    expect(types.slice(-3)).toEqual(['turn_end', 'approval_required', 'done']);
    expect(provider.ran).toEqual(['toolu_read']);
    // Journaled before the run was saved as pending: the resume answers it from the journal.
    expect([...(await store.journaledResults(run.runId!)).keys()]).toEqual(['toolu_read']);
    const resumed = await resumeToolLoop({ client: replayClient(script(batch)), model: MODEL, tools, store, runId: run.runId!, decisions: { toolu_refund: { approve: true } } });
    expect(resumed.stopReason).toBe('end_turn');
    expect(provider.ran).toEqual(['toolu_read', 'toolu_refund', 'toolu_note']);
    expect(answersById(resumed.messages).get('toolu_read')).toHaveLength(1);
  });
});

describe('approval: resume', () => {
  it('runs an approved batch in order once, journals it, and finishes the run; a second resume runs nothing', async () => {
    const { provider, tools, store, client, paused } = await pausedRefund();
    const done = await resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } });

    expect(done.stopReason).toBe('end_turn');
    expect(done.text).toBe('done');
    expect(provider.ran).toEqual(['toolu_read', 'toolu_refund', 'toolu_note']);
    expect(JSON.parse(resultText(answersById(done.messages).get('toolu_refund')![0]))).toEqual({ order: 'A-1001', refunded: 50, idempotencyKey: 'toolu_refund' });
    expect(checkTranscript(done.messages)).toEqual([]);
    expect(client.violations).toEqual([]);
    expect([...(await store.journaledResults(paused.runId!)).keys()]).toEqual(['toolu_read', 'toolu_refund', 'toolu_note']);
    expect((await store.load(paused.runId!))?.state.status).toBe('finished');
    expect(done.turns).toBe(2);
    // As runToolLoop does, unlike streamResumeToolLoop: the answer is not streamed.
    expect(client.requests.map((r) => r.stream)).toEqual([false, false]);

    await expect(resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } })).rejects.toMatchObject({
      name: 'DecisionError',
      problem: 'finished_run',
    });
    expect(provider.ran).toHaveLength(3);
  });

  it('answers only the calls of a paused turn that also holds text', async () => {
    const { provider, tools } = refundTools('writes');
    const store = new InMemoryRunStore();
    const worded = turn('tool_use', text('Vou reembolsar.'), toolUse('toolu_refund', 'refund', { order: 'A-1001', amount: 50 }), text('Aguarde.'));
    const client = replayClient(script(worded));
    const paused = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'refund A-1001' });
    const done = await resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } });

    expect(done.stopReason).toBe('end_turn');
    expect(provider.ran).toEqual(['toolu_refund']);
    expect(done.messages[2].content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_refund' })]);
    expect(checkTranscript(done.messages)).toEqual([]);
  });

  it('does not ask about the approval of a resumed batch again: its decisions are given', async () => {
    const { tools, store, client, paused } = await pausedRefund();
    const asked = jest.spyOn(tools, 'checkApprovals');
    const done = await resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } });

    expect(done.stopReason).toBe('end_turn');
    // The next turn's calls would be asked about as their blocks complete; the resumed batch's are not.
    expect(asked).not.toHaveBeenCalled();
  });

  it('saves the time the run has used, which a resume counts its time budget from', async () => {
    const before = Date.now();
    const { store, paused } = await pausedRefund();
    const took = Date.now() - before;

    const { elapsedMs } = (await store.load(paused.runId!))!.state.used;
    expect(elapsedMs).toBeGreaterThanOrEqual(0);
    expect(elapsedMs).toBeLessThanOrEqual(took);
  });

  it('answers a denied call "Denied by the user" with the reason and halts the calls after it', async () => {
    const { provider, tools, store, client, paused } = await pausedRefund();
    const done = await resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: false, reason: 'over the limit' } } });

    const answers = answersById(done.messages);
    expect(answers.get('toolu_refund')).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_refund', content: 'Denied by the user: over the limit', is_error: true }]);
    expect(resultText(answers.get('toolu_note')![0])).toBe('Not executed: an earlier call in this batch (refund, toolu_refund) failed.');
    expect(provider.ran).toEqual(['toolu_read']);
    expect(checkTranscript(done.messages)).toEqual([]);
  });

  it('refuses unknown runs, missing and extra decisions, and malformed ones, with the ids at fault', async () => {
    const { tools, store, client, paused } = await pausedRefund();
    const resume = (runId: string, decisions: unknown) => resumeToolLoop({ client, model: MODEL, tools, store, runId, decisions: decisions as never });

    await expect(resume('nope', {})).rejects.toMatchObject({ problem: 'unknown_run' });
    await expect(resume(paused.runId!, {})).rejects.toMatchObject({ problem: 'missing', toolUseIds: ['toolu_refund'] });
    await expect(resume(paused.runId!, { toolu_refund: { approve: true }, toolu_note: { approve: true } })).rejects.toMatchObject({ problem: 'not_pending', toolUseIds: ['toolu_note'] });
    await expect(resume(paused.runId!, { toolu_refund: { approve: 'yes' } })).rejects.toBeInstanceOf(DecisionError);
    expect((await store.load(paused.runId!))?.state.status).toBe('pending');
  });

  it('lets exactly one of two concurrent resumes run the batch; the other gets a claim error', async () => {
    const { provider, tools, store, client, paused } = await pausedRefund();
    const decisions = { toolu_refund: { approve: true } };
    const outcomes = await Promise.allSettled([
      resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions }),
      resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions }),
    ]);

    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason instanceof RunClaimError || rejected.reason instanceof RunConflictError).toBe(true);
    expect(provider.ran.filter((id) => id === 'toolu_refund')).toEqual(['toolu_refund']);
  });

  it('signs the state with a secret, resumes a verified state in a store that never saw it, and refuses a changed one', async () => {
    const { provider, tools } = refundTools('writes');
    const client = replayClient(script(batch));
    const paused = await runToolLoop({ client, model: MODEL, tools, store: new InMemoryRunStore(), secret: SECRET, prompt: 'x' });
    expect(paused.signedState?.signature).toMatch(/^hmac-sha256:/);

    const changed = structuredClone(paused.signedState!);
    (changed.state.pending[0].input as { amount: number }).amount = 5000;
    const decisions = { toolu_refund: { approve: true } };
    await expect(resumeToolLoop({ client, model: MODEL, tools, store: new InMemoryRunStore(), secret: SECRET, state: changed, decisions })).rejects.toBeInstanceOf(RunStateError);
    await expect(resumeToolLoop({ client, model: MODEL, tools, store: new InMemoryRunStore(), state: paused.signedState!, decisions })).rejects.toThrow(/secret/);
    expect(provider.ran).toEqual([]);

    const done = await resumeToolLoop({ client, model: MODEL, tools, store: new InMemoryRunStore(), secret: SECRET, state: paused.signedState!, decisions });
    expect(done.stopReason).toBe('end_turn');
    expect(provider.ran).toEqual(['toolu_read', 'toolu_refund', 'toolu_note']);
  });

  it('continues a run whose process died mid-batch from the journal, without running a journaled write again', async () => {
    const { provider, tools } = refundTools('writes');
    let now = 0;
    const store = new InMemoryRunStore({ claimLeaseMs: 1000, clock: () => now });
    const client = replayClient(script(batch));
    const paused = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'x' });
    // The first resume dies right after the refund is journaled: the process is gone.
    const original = store.recordResult.bind(store);
    store.recordResult = async (runId, result) => {
      const recorded = await original(runId, result);
      if (result.tool_use_id === 'toolu_refund') throw new Error('crash');
      return recorded;
    };
    const decisions = { toolu_refund: { approve: true } };
    await expect(resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions })).rejects.toThrow('crash');
    store.recordResult = original;

    await expect(resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions })).rejects.toMatchObject({ problem: 'claimed' });
    now += 1001;
    const done = await resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions });
    expect(done.stopReason).toBe('end_turn');
    expect(provider.ran.filter((id) => id === 'toolu_refund')).toHaveLength(1);
    expect(checkTranscript(done.messages)).toEqual([]);
  });
});

async function eventsOf(stream: ToolStream): Promise<ToolStreamEvent[]> {
  const events: ToolStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('a history that ends with a user message takes the next prompt (issue 25)', () => {
  it('after a resumed run whose model ended with no content, the next run merges the prompt into that user message', async () => {
    const { tools, store, paused } = await pausedRefund();
    const empty = turn('end_turn');
    const client = replayClient(() => empty);
    const decisions = Object.fromEntries(paused.pending!.map((c) => [c.toolUseId, { approve: true }]));
    const resumed = await resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions });
    expect(resumed.stopReason).toBe('end_turn');
    expect(resumed.messages.at(-1)!.role).toBe('user');

    const next = replayClient(() => turn('end_turn', text('ok')));
    const run = await runToolLoop({ client: next, model: MODEL, tools, store, messages: resumed.messages, prompt: 'and now?', promptCaching: false });
    expect(run.text).toBe('ok');
    expect(next.violations).toEqual([]);
    const sent = next.requests[0].messages;
    expect(sent.length).toBe(resumed.messages.length);
    expect(sent.at(-1)!.content).toEqual([...(resumed.messages.at(-1)!.content as unknown[]), { type: 'text', text: 'and now?' }]);
    expect(checkTranscript(run.messages)).toEqual([]);
  });
});

describe('approval: streamed resume', () => {
  it('streams the approved batch and the next turn with the same result as resumeToolLoop, done last', async () => {
    const { provider, tools, store, client, paused } = await pausedRefund();
    const stream = await streamResumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } });
    const events = await eventsOf(stream);
    const done = await stream.result;

    expect(done).toMatchObject({ stopReason: 'end_turn', text: 'done', turns: 2, runId: paused.runId });
    expect(provider.ran).toEqual(['toolu_read', 'toolu_refund', 'toolu_note']);
    expect(events.filter((e) => e.type === 'tool_start').map((e) => (e as { toolUseId: string }).toolUseId)).toEqual(['toolu_read', 'toolu_refund', 'toolu_note']);
    expect(events.filter((e) => e.type === 'tool_end' && e.toolUseId === 'toolu_refund')).toEqual([expect.objectContaining({ turn: 1, outcome: 'ok', isError: false })]);
    expect(events.find((e) => e.type === 'turn_start')).toMatchObject({ turn: 2 });
    expect(events.filter((e) => e.type === 'text_delta' && e.turn === 2).map((e) => (e as { text: string }).text).join('')).toBe('done');
    expect(events.at(-1)).toEqual({ type: 'done', at: expect.any(Number), stopReason: 'end_turn', text: 'done', turns: 2, usage: done.usage });
    expect(checkTranscript(done.messages)).toEqual([]);
    expect(client.violations).toEqual([]);
    expect((await store.load(paused.runId!))?.state.status).toBe('finished');

    await expect(streamResumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } })).rejects.toMatchObject({
      name: 'DecisionError',
      problem: 'finished_run',
    });
    expect(provider.ran).toHaveLength(3);
  });

  it('streams a pause again with the run id in approval_required', async () => {
    const { tools } = refundTools('writes');
    const store = new InMemoryRunStore();
    const second = turn('tool_use', toolUse('toolu_refund_2', 'refund', { order: 'A-1001', amount: 200 }));
    const client = replayClient(script(batch, second));
    const paused = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'x' });
    const stream = await streamResumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } });
    const events = await eventsOf(stream);

    expect((await stream.result).pending?.map((c) => c.toolUseId)).toEqual(['toolu_refund_2']);
    expect(events.slice(-2).map((e) => e.type)).toEqual(['approval_required', 'done']);
    expect(events.at(-2)).toMatchObject({ runId: paused.runId, pending: [{ toolUseId: 'toolu_refund_2' }] });
    expect(events.at(-1)).toMatchObject({ stopReason: 'approval_required' });
  });

  it('refuses, by rejecting before any stream exists, everything resumeToolLoop refuses; nothing runs and the run stays pending', async () => {
    const { provider, tools, store, client, paused } = await pausedRefund({ secret: SECRET, owner: 'C-ana' });
    const base = { client, model: MODEL, tools, store, owner: 'C-ana' };
    const decisions = { toolu_refund: { approve: true } };
    const changed = structuredClone(paused.signedState!);
    (changed.state.pending[0].input as { amount: number }).amount = 5000;

    await expect(streamResumeToolLoop({ ...base, runId: 'nope', decisions })).rejects.toMatchObject({ name: 'DecisionError', problem: 'unknown_run' });
    await expect(streamResumeToolLoop({ ...base, runId: paused.runId!, decisions: {} })).rejects.toMatchObject({ name: 'DecisionError', problem: 'missing' });
    await expect(streamResumeToolLoop({ ...base, owner: 'C-bob', runId: paused.runId!, decisions })).rejects.toMatchObject({ name: 'DecisionError', problem: 'not_owner' });
    await expect(streamResumeToolLoop({ ...base, secret: SECRET, state: changed, decisions })).rejects.toMatchObject({ name: 'RunStateError', problem: 'signature' });
    await expect(streamResumeToolLoop({ ...base, maxTurns: 0, runId: paused.runId!, decisions })).rejects.toThrow(RangeError);
    expect(provider.ran).toEqual([]);
    expect(client.requests).toHaveLength(1);
    expect((await store.load(paused.runId!))?.state.status).toBe('pending');

    // One of two concurrent streamed resumes is refused the same way; the write runs once.
    const outcomes = await Promise.allSettled([streamResumeToolLoop({ ...base, runId: paused.runId!, decisions }), streamResumeToolLoop({ ...base, runId: paused.runId!, decisions })]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason;
    expect(refused instanceof RunClaimError || refused instanceof RunConflictError).toBe(true);
    await (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<ToolStream>).value.result;
    expect(provider.ran.filter((id) => id === 'toolu_refund')).toEqual(['toolu_refund']);
  });

  it('stops on abort(): the approved calls are answered "Not executed", the run is released, and a retry resumes it at once', async () => {
    const { provider, tools, store, client, paused } = await pausedRefund();
    const stream = await streamResumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: { toolu_refund: { approve: true } } });
    stream.abort();
    const events = await eventsOf(stream);
    const run = await stream.result;

    expect(run.stopReason).toBe('aborted');
    expect(provider.ran).toEqual([]);
    expect(resultText(answersById(run.messages).get('toolu_refund')![0])).toBe('Not executed: the run was aborted.');
    expect(checkTranscript(run.messages)).toEqual([]);
    expect(events.slice(-2).map((e) => e.type)).toEqual(['limit', 'done']);
    // Saved with the answered batch and released, not finished: an immediate retry carries it on.
    const saved = await store.load(paused.runId!);
    expect(saved?.state).toMatchObject({ status: 'running', pending: [], messages: run.messages });
    const retried = await resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: {} });
    expect(retried.stopReason).toBe('end_turn');
    expect(provider.ran).toEqual([]);
    expect(checkTranscript(retried.messages)).toEqual([]);
    expect((await store.load(paused.runId!))?.state.status).toBe('finished');
  });
});

describe('approval: the run\'s owner', () => {
  it('saves the owner with the run and refuses any other, or none, before the finished or pending checks', async () => {
    const { provider, tools, store, client, paused } = await pausedRefund({ owner: 'C-ana' });
    expect((await store.load(paused.runId!))?.state.owner).toBe('C-ana');
    const resume = (owner: string | undefined, decisions: unknown) =>
      resumeToolLoop({ client, model: MODEL, tools, store, runId: paused.runId!, decisions: decisions as never, ...(owner !== undefined && { owner }) });

    for (const [owner, decisions] of [['C-bob', { toolu_refund: { approve: true } }], [undefined, { toolu_refund: { approve: true } }], ['C-bob', { toolu_other: { approve: true } }]] as const) {
      const error = await resume(owner, decisions).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DecisionError);
      expect(error).toMatchObject({ problem: 'not_owner', toolUseIds: [] });
      expect((error as Error).message).toBe(`Run ${JSON.stringify(paused.runId)} was started by another owner; only the \`owner\` it was started with may resume it.`);
    }
    expect(provider.ran).toEqual([]);
    expect((await store.load(paused.runId!))?.state).toMatchObject({ status: 'pending', owner: 'C-ana' });

    const done = await resume('C-ana', { toolu_refund: { approve: true } });
    expect(done.stopReason).toBe('end_turn');
    expect(provider.ran).toEqual(['toolu_read', 'toolu_refund', 'toolu_note']);
    expect((await store.load(paused.runId!))?.state).toMatchObject({ status: 'finished', owner: 'C-ana' });
    // Someone else does not learn that the run has finished either.
    await expect(resume('C-bob', { toolu_refund: { approve: true } })).rejects.toMatchObject({ problem: 'not_owner' });
  });

  it('lets anyone resume a run started without an owner, and refuses an empty owner', async () => {
    const { tools } = refundTools('writes');
    const store = new InMemoryRunStore();
    const client = replayClient(script(batch));
    await expect(runToolLoop({ client, model: MODEL, tools, store, owner: '', prompt: 'x' })).rejects.toThrow('runToolLoop: owner must be a non-empty string');
    const paused = await runToolLoop({ client, model: MODEL, tools, store, prompt: 'x' });
    expect((await store.load(paused.runId!))?.state.owner).toBeUndefined();
    const done = await resumeToolLoop({ client, model: MODEL, tools, store, owner: 'C-bob', runId: paused.runId!, decisions: { toolu_refund: { approve: true } } });
    expect(done.stopReason).toBe('end_turn');
  });

  it('signs the owner with the state: a changed owner does not verify', async () => {
    const { provider, tools } = refundTools('writes');
    const client = replayClient(script(batch));
    const paused = await runToolLoop({ client, model: MODEL, tools, store: new InMemoryRunStore(), secret: SECRET, owner: 'C-ana', prompt: 'x' });
    expect(paused.signedState!.state.owner).toBe('C-ana');
    const decisions = { toolu_refund: { approve: true } };
    const stolen = structuredClone(paused.signedState!);
    stolen.state.owner = 'C-bob';
    const base = { client, model: MODEL, tools, secret: SECRET, decisions };
    await expect(resumeToolLoop({ ...base, store: new InMemoryRunStore(), owner: 'C-bob', state: stolen })).rejects.toMatchObject({ name: 'RunStateError', problem: 'signature' });
    await expect(resumeToolLoop({ ...base, store: new InMemoryRunStore(), owner: 'C-bob', state: paused.signedState! })).rejects.toMatchObject({ problem: 'not_owner' });
    expect(provider.ran).toEqual([]);
    await expect(resumeToolLoop({ ...base, store: new InMemoryRunStore(), owner: 'C-ana', state: paused.signedState! })).resolves.toMatchObject({ stopReason: 'end_turn' });
  });
});
