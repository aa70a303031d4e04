import { RUN_STATE_VERSION, RunStateError, checkRunState, createRunState } from '@toolwright/core';
import { pausedRun } from './run-states';

const problem = (value: unknown) => {
  try {
    checkRunState(value);
  } catch (error) {
    expect(error).toBeInstanceOf(RunStateError);
    return { problem: (error as RunStateError).problem, message: (error as Error).message };
  }
  throw new Error('checkRunState accepted it');
};

describe('run state', () => {
  it('creates a pending, versioned state with a fresh run id and nothing spent', () => {
    const call = { toolUseId: 'toolu_1', toolName: 'orders_cancel', input: { orderId: 'A-1' }, effect: 'write' as const };
    const a = createRunState({ messages: [], pending: [call] });
    const b = createRunState({ messages: [], pending: [call] });
    expect(a).toEqual({
      version: RUN_STATE_VERSION,
      runId: expect.any(String),
      status: 'pending',
      messages: [],
      pending: [call],
      used: { turns: 0, usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, elapsedMs: 0 },
    });
    expect(a.runId).not.toBe(b.runId);
  });

  it('survives a JSON round trip unchanged', () => {
    const state = pausedRun();
    expect(checkRunState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('keeps the decisions a resume recorded on its pending calls', () => {
    const paused = pausedRun();
    const [call] = paused.pending;
    const state = { ...paused, status: 'running' as const, pending: [{ ...call, decision: { approve: false, reason: 'not \u0000 today' } }] };
    expect(checkRunState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('refuses another version and says what to do', () => {
    expect(problem({ ...pausedRun(), version: 3 })).toEqual({
      problem: 'version',
      message: 'Run state version 3 is not supported: this build of toolwright reads versions 1 and 2. Resume the run with the version that saved it, or start a new run.',
    });
    expect(problem({ ...pausedRun(), version: undefined }).problem).toBe('version');
  });

  it('reads a version 1 state, saved before owners existed, as a current one without an owner', () => {
    const { owner, ...current } = pausedRun(undefined, undefined, 'C-ana');
    expect(owner).toBe('C-ana');
    const saved = { ...current, version: 1 };
    expect(checkRunState(saved)).toEqual({ ...current, version: RUN_STATE_VERSION });
    expect(saved.version).toBe(1);
    expect(problem({ ...saved, owner: 'C-ana' }).message).toBe('Run state is not valid: owner is not a field of version 1.');
  });

  it('keeps an owner, and refuses one that is not a non-empty string', () => {
    expect(checkRunState(pausedRun(undefined, undefined, 'C-ana')).owner).toBe('C-ana');
    expect(createRunState({ messages: [], pending: [], status: 'finished' })).not.toHaveProperty('owner');
    for (const owner of ['', 42, null]) {
      expect(problem({ ...pausedRun(), owner }).message).toBe('Run state is not valid: owner must be a non-empty string when present.');
    }
  });

  it.each([
    ['not an object', [], 'the run state must be an object'],
    ['an empty runId', { runId: '' }, 'runId must be a non-empty string'],
    ['an unknown status', { status: 'paused' }, `status must be 'pending', 'running' or 'finished', got "paused"`],
    ['messages not an array', { messages: {} }, 'messages must be an array'],
    ['a message with a bad role', { messages: [{ role: 'system', content: 'x' }] }, `messages[0].role must be 'user' or 'assistant', got "system"`],
    ['a message without content', { messages: [{ role: 'user' }] }, 'messages[0].content must be a string or an array of content blocks'],
    ['a content block that is null', { messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, null] }] }, 'messages[0].content[1] must be a content block (an object with a string type)'],
    ['a content block without a type', { messages: [{ role: 'user', content: [{ text: 'x' }] }] }, 'messages[0].content[0] must be a content block (an object with a string type)'],
    ['a tool_use without an id', { messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: [{ type: 'tool_use', name: 't', input: {} }] }] }, 'messages[1].content[0].id must be a non-empty string'],
    ['a server_tool_use id with a NUL', { messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: [{ type: 'server_tool_use', id: 'a\0', name: 'web_search', input: {} }] }] }, 'messages[1].content[0].id holds a NUL character (U+0000)'],
    ['a tool_result without a tool_use_id', { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }, 'messages[0].content[0].tool_use_id must be a string'],
    ['a pending call without id', { pending: [{ toolName: 't', input: {}, effect: 'write' }] }, 'pending[0].toolUseId must be a non-empty string'],
    ['an input that is an array', { pending: [{ toolUseId: 'a', toolName: 't', input: [1], effect: 'write' }] }, 'pending[0].input must be a JSON object'],
    ['an unknown effect', { pending: [{ toolUseId: 'a', toolName: 't', input: {}, effect: 'delete' }] }, `pending[0].effect must be 'read' or 'write', got "delete"`],
    ['a decision that is not an object', { pending: [{ toolUseId: 'a', toolName: 't', input: {}, effect: 'write', decision: true }] }, 'pending[0].decision must be an object when present'],
    ['a decision without approve', { pending: [{ toolUseId: 'a', toolName: 't', input: {}, effect: 'write', decision: { approve: 'yes' } }] }, 'pending[0].decision.approve must be a boolean, got "yes"'],
    ['a decision whose reason is not text', { pending: [{ toolUseId: 'a', toolName: 't', input: {}, effect: 'write', decision: { approve: false, reason: 1 } }] }, 'pending[0].decision.reason must be a string when present'],
    ['a negative turn count', { used: { ...pausedRun().used, turns: -1 } }, 'used.turns must be a number >= 0, got -1'],
    ['a missing usage field', { used: { ...pausedRun().used, usage: { inputTokens: 1 } } }, 'used.usage.outputTokens must be a number >= 0, got undefined'],
  ])('names the field at fault: %s', (_, change, message) => {
    const value = Array.isArray(change) ? change : { ...pausedRun(), ...change };
    expect(problem(value)).toEqual({ problem: 'malformed', message: `Run state is not valid: ${message}.` });
  });

  it('refuses the same toolUseId twice among the pending calls', () => {
    const state = pausedRun(['toolu_a', 'toolu_b']);
    state.pending[1].toolUseId = 'toolu_a';
    expect(problem(state).message).toBe(
      'Run state is not valid: pending[1].toolUseId repeats "toolu_a"; each pending call has its own id.',
    );
  });

  it('keeps status and pending consistent', () => {
    expect(problem({ ...pausedRun(), pending: [] }).message).toContain("a 'pending' run waits for at least one decision");
    expect(problem({ ...pausedRun(), status: 'finished' }).message).toContain("must be empty in a 'finished' run");
    expect(checkRunState({ ...pausedRun(), status: 'finished', pending: [] }).status).toBe('finished');
  });
});
