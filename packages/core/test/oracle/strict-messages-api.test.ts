import { strictRefusals } from './strict-messages-api';

// The oracle itself must refuse what the documentation says the API refuses, or a property
// that replays transcripts against it proves nothing: one request per rule.

const tools = [{ name: 'get_weather', input_schema: { type: 'object' } }];
const ask = { role: 'user', content: 'Weather in Paris?' };
const call = (...ids: string[]) => ({ role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, ...ids.map((id) => ({ type: 'tool_use', id, name: 'get_weather', input: {} }))] });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: '15 °C' });
const answer = (...blocks: object[]) => ({ role: 'user', content: blocks });

test('a well-formed tool conversation is accepted', () => {
  const messages = [ask, call('toolu_1', 'toolu_2'), answer(result('toolu_2'), result('toolu_1'), { type: 'text', text: 'and?' }), { role: 'assistant', content: 'Mild.' }];
  expect(strictRefusals({ messages, tools })).toEqual([]);
});

test.each([
  ['no messages', [], /at least one message/],
  ['an assistant first', [{ role: 'assistant', content: 'Hi' }, ask], /first message must use the "user" role/],
  ['two user messages in a row', [ask, ask], /roles must alternate/],
  ['an empty content list', [{ role: 'user', content: [] }], /non-empty/],
  ['an empty text block', [answer({ type: 'text', text: '' })], /text content blocks must be non-empty/],
  ['a tool_use left unanswered at the end', [ask, call('toolu_1')], /without tool_result blocks immediately after: toolu_1/],
  ['a message between the tool_use and its result', [ask, call('toolu_1'), { role: 'user', content: 'wait' }, { role: 'assistant', content: 'ok' }, answer(result('toolu_1'))], /immediately after: toolu_1/],
  ['one of two tool_uses unanswered', [ask, call('toolu_1', 'toolu_2'), answer(result('toolu_1'))], /immediately after: toolu_2/],
  ['text before the tool_result', [ask, call('toolu_1'), answer({ type: 'text', text: 'Here:' }, result('toolu_1'))], /must come before any other content/],
  ['a result for an id never asked for', [ask, call('toolu_1'), answer(result('toolu_1'), result('toolu_9'))], /unexpected tool_use_id found in tool_result blocks: toolu_9/],
  ['a result answering an earlier turn', [ask, call('toolu_1'), answer(result('toolu_1')), { role: 'assistant', content: 'Done.' }, answer(result('toolu_1'))], /unexpected tool_use_id/],
  ['two results for one tool_use', [ask, call('toolu_1'), answer(result('toolu_1'), result('toolu_1'))], /multiple tool_result blocks with id: toolu_1/],
  ['a tool_use id used twice', [ask, call('toolu_1'), answer(result('toolu_1')), call('toolu_1'), answer(result('toolu_1'))], /tool_use ids must be unique/],
  ['a tool_use id with a space', [ask, call('toolu 1'), answer(result('toolu 1'))], /should match pattern/],
  ['a tool_result in an assistant message', [ask, { role: 'assistant', content: [result('toolu_1')] }], /only allowed in user messages/],
  ['a tool_use in a user message', [{ role: 'user', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] }], /only allowed in assistant messages/],
])('refuses %s', (_what, messages, refusal) => {
  expect(strictRefusals({ messages, tools }).join('\n')).toMatch(refusal);
});

test('accepts a paused turn followed by its continuation, as the API combines them', () => {
  const paused = { role: 'assistant', content: [{ type: 'text', text: 'Searching…' }] };
  expect(strictRefusals({ messages: [ask, paused, { role: 'assistant', content: 'Found it.' }], tools })).toEqual([]);
  expect(strictRefusals({ messages: [ask, paused, call('toolu_1')], tools })).toEqual([expect.stringMatching(/immediately after: toolu_1/)]);
});

test('refuses tool blocks in a request without tools', () => {
  expect(strictRefusals({ messages: [ask, call('toolu_1'), answer(result('toolu_1'))] })).toEqual([expect.stringMatching(/must define tools/)]);
});

test('counts every breakpoint, the top-level one included, and refuses a fifth', () => {
  const ephemeral = { cache_control: { type: 'ephemeral' } };
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'a', ...ephemeral }] }];
  const request = { messages, tools: [{ ...tools[0], ...ephemeral }], system: [{ type: 'text', text: 's', ...ephemeral }, { type: 'text', text: 't', ...ephemeral }] };
  expect(strictRefusals(request)).toEqual([]);
  expect(strictRefusals({ ...request, ...ephemeral })).toEqual([expect.stringMatching(/maximum of 4 blocks with cache_control.*Found 5/)]);
});

test('owes no tool_result for a server tool, whose result comes in the same message', () => {
  const search = { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }, { type: 'text', text: 'Found.' }] };
  expect(strictRefusals({ messages: [ask, search], tools })).toEqual([]);
});
