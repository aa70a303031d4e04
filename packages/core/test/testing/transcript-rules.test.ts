import fc from 'fast-check';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { checkRequest, checkTranscript, type TranscriptMessage } from '@toolwright/core/testing';
import { checkTranscript as fromCore } from '@toolwright/core';

// One test per ordering rule of PROTOCOL.md: each transcript breaks exactly that rule.

const user = (content: MessageParam['content']): MessageParam => ({ role: 'user', content });
const assistant = (content: MessageParam['content']): MessageParam => ({ role: 'assistant', content });
const call = (id: string) => ({ type: 'tool_use' as const, id, name: 'buscar_pedido', input: { numero: 'A-1001' } });
const result = (id: string, isError = false) => ({ type: 'tool_result' as const, tool_use_id: id, content: '{}', ...(isError && { is_error: true }) });
const say = (text: string) => ({ type: 'text' as const, text });
const serverCall = (id: string) => ({ type: 'server_tool_use' as const, id, name: 'web_search' as const, input: { query: 'prazo' } });
const serverResult = (id: string) => ({ type: 'web_search_tool_result' as const, tool_use_id: id, content: [] });

const rules = (messages: readonly TranscriptMessage[]) => checkTranscript(messages).map((v) => v.rule);

describe('valid conversations have no violations', () => {
  test.each<[string, MessageParam[]]>([
    ['the lesson, scenario 1', [user('Onde está o pedido A-1001?'), assistant([say('Vou consultar.'), call('toolu_01')]), user([result('toolu_01')]), assistant([say('Enviado.')])]],
    ['the lesson, scenario 2', [user('1002?'), assistant([call('toolu_02')]), user([result('toolu_02', true)]), assistant([call('toolu_03')]), user([result('toolu_03')])]],
    ['the lesson, scenario 3', [user('Os dois?'), assistant([call('toolu_04a'), call('toolu_04b')]), user([result('toolu_04a'), result('toolu_04b')])]],
    ['text after the results', [user('oi'), assistant([call('t1')]), user([result('t1'), say('lembrete')])]],
    ['a paused turn and its continuation', [user('prazo?'), assistant([serverCall('s1')]), assistant([serverResult('s1'), say('5 dias')])]],
    ['a finished server call, then text from the user', [user('prazo?'), assistant([serverCall('s1'), serverResult('s1'), say('5 dias')]), user('obrigado')]],
    ['a prefilled assistant message at the end', [user('oi'), assistant('Olá')]],
  ])('%s', (_name, messages) => {
    expect(checkTranscript(messages)).toEqual([]);
  });
});

test('non-empty: a request needs a message', () => {
  expect(rules([])).toEqual(['non-empty']);
});

test('starts-with-user: the first message is the user\'s', () => {
  expect(rules([assistant('Olá'), user('oi')])).toEqual(['starts-with-user']);
});

test('roles-alternate: two user messages in a row', () => {
  expect(rules([user('oi'), user('de novo')])).toEqual(['roles-alternate']);
});

test('roles-alternate: an unknown role', () => {
  expect(rules([user('oi'), { role: 'tool', content: 'x' }])).toEqual(['roles-alternate']);
});

test('unique-tool-use-ids: an id used twice', () => {
  expect(rules([user('oi'), assistant([call('t1')]), user([result('t1')]), assistant([call('t1')]), user([result('t1')])])).toEqual([
    'unique-tool-use-ids',
  ]);
});

test('results-follow-immediately: a tool_use with no answer at the end', () => {
  const [violation] = checkTranscript([user('oi'), assistant([call('t1')])]);
  expect(violation).toMatchObject({ rule: 'results-follow-immediately', messageIndex: 1 });
  expect(violation.message).toContain('tool_use` ids were found without `tool_result` blocks immediately after: t1');
});

test('results-follow-immediately: one of two calls left unanswered', () => {
  expect(rules([user('oi'), assistant([call('t1'), call('t2')]), user([result('t1')])])).toEqual(['results-follow-immediately']);
});

test('results-follow-immediately: another assistant message before the results', () => {
  expect(rules([user('oi'), assistant([call('t1')]), assistant([say('...')])])).toEqual(['results-follow-immediately']);
});

test('results-follow-immediately: a user text before the results', () => {
  expect(rules([user('oi'), assistant([call('t1')]), user('espera'), assistant('ok')])).toEqual(['results-follow-immediately']);
});

test('results split over two messages break the rules', () => {
  expect(rules([user('oi'), assistant([call('t1'), call('t2')]), user([result('t1')]), user([result('t2')])])).toEqual(
    expect.arrayContaining(['results-follow-immediately', 'results-match-calls']),
  );
});

test('results-match-calls: an invented tool_use_id', () => {
  expect(rules([user('oi'), assistant([call('t1')]), user([result('t1'), result('t9')])])).toEqual(['results-match-calls']);
});

test('results-match-calls: a result with no tool_use before it', () => {
  expect(rules([user('oi'), assistant('Olá'), user([result('t1')])])).toEqual(['results-match-calls']);
});

test('one-result-per-call: a call answered twice', () => {
  expect(rules([user('oi'), assistant([call('t1')]), user([result('t1'), result('t1')])])).toEqual(['one-result-per-call']);
});

test('results-first: text before a tool_result', () => {
  expect(rules([user('oi'), assistant([call('t1')]), user([say('aqui está'), result('t1')])])).toEqual(['results-first']);
});

test('results-in-call-order: results in another order than the calls', () => {
  expect(rules([user('oi'), assistant([call('t1'), call('t2')]), user([result('t2'), result('t1')])])).toEqual(['results-in-call-order']);
});

test('only-results-after-unfinished-server-call: text next to the results while a server call has no result', () => {
  const messages = [user('oi'), assistant([serverCall('s1'), call('t1')]), user([result('t1'), say('lembrete')])];
  expect(rules(messages)).toEqual(['only-results-after-unfinished-server-call']);
});

test('only-results-for-programmatic-calls: text next to the results of calls made from code, on any turn of the run', () => {
  const fromCode = (id: string) => ({ ...call(id), caller: { type: 'code_execution_20250825' as const, tool_id: 's1' } });
  // The second turn continues the code of the first: its server call is in an earlier message.
  const messages = [
    user('oi'),
    assistant([serverCall('s1'), fromCode('t1')]),
    user([result('t1')]),
    assistant([fromCode('t2')]),
    user([result('t2'), say('lembrete')]),
  ];
  expect(rules(messages)).toEqual(['only-results-for-programmatic-calls']);
  expect(rules(messages.slice(0, 4).concat(user([result('t2')])))).toEqual([]);
});

test('tools-defined: a request with tool blocks must define tools', () => {
  const messages = [user('oi'), assistant([call('t1')]), user([result('t1')])];
  expect(checkRequest({ messages, tools: [] }).map((v) => v.rule)).toEqual(['tools-defined']);
  expect(checkRequest({ messages, tools: [{ name: 'buscar_pedido' }] })).toEqual([]);
});

test('@toolwright/core exports the same checker', () => {
  expect(fromCore).toBe(checkTranscript);
});

test('results in call order pass and any other order is flagged', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 6 }).chain((ids) =>
        fc.tuple(fc.constant(ids), fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length })),
      ),
      ([ids, answered]) => {
        const messages = [user('oi'), assistant(ids.map(call)), user(answered.map((id) => result(id)))];
        const inOrder = answered.every((id, i) => id === ids[i]);
        expect(rules(messages)).toEqual(inOrder ? [] : ['results-in-call-order']);
      },
    ),
  );
});
