import 'reflect-metadata';
import { InMemoryRunStore } from '@toolwright/core';
import { apiError, text, toolUse, turn, type ScriptedRequest } from '@toolwright/core/testing';
import { closeExampleApps, startExampleApp } from './fixtures/example-app';

// A denial's reason comes from the body of POST /runs/:id/decisions and is journaled as the call's
// answer ("Denied by the user: <reason>"), which stands on every later attempt. A lone surrogate in
// it (valid JSON: "\ud83d", a text field cut inside an emoji) must be refused before it is recorded:
// the Messages API refuses a request holding one, and the run could never go on.

const wellFormed = (value: unknown) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(JSON.stringify(value).replace(/\\u[0-9a-f]{4}/gi, (m) => String.fromCharCode(parseInt(m.slice(2), 16))));

/** The Messages API as the project describes it: a request holding a lone surrogate is refused 400. */
const api = (reply: ReturnType<typeof turn>) => (request: ScriptedRequest) =>
  wellFormed(request.body.messages) ? reply : apiError(400, { message: 'The request body is not valid JSON: lone leading surrogate in hex escape' });

afterEach(() => closeExampleApps());

function post(url: string, body: string) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-customer-id': 'C-ana' }, body });
}

it('a denial reason with a lone surrogate is refused as malformed (400), before it is journaled for good', async () => {
  const store = new InMemoryRunStore();
  const { url, server } = await startExampleApp(
    [
      turn('tool_use', text('Vou cancelar.'), toolUse('toolu_02', 'cancelar_pedido', { numero: 'A-1001' })),
      api(turn('end_turn', text('Ok, não cancelei.'))),
      api(turn('end_turn', text('Ok, não cancelei.'))),
      api(turn('end_turn', text('Ok, não cancelei.'))),
    ],
    { approval: 'writes', store },
  );
  const { runId } = (await (await post(`${url}/chat`, JSON.stringify({ message: 'Cancele o A-1001' }))).json()) as { runId: string };
  const decisions = `${url}/runs/${runId}/decisions`;

  // A browser's text field cut in the middle of an emoji: "no 😀" minus its last code unit.
  const first = await post(decisions, '{"decisions": {"toolu_02": {"approve": false, "reason": "no \\ud83d"}}}');
  const retry = await post(decisions, '{"decisions": {"toolu_02": {"approve": false, "reason": "no"}}}');
  // What the error advises after a failure: resume with no decisions. The journaled denial is resent as it is.
  const carryOn = await post(decisions, '{"decisions": {}}');

  // Refused up front (400), the corrected decision runs (200), and the run is then finished (409);
  // no request to the model carried the lone surrogate.
  expect({
    statuses: [first.status, retry.status, carryOn.status],
    modelRequestsWithLoneSurrogate: server.requests.slice(1).filter((r) => !wellFormed(r.body.messages)).length,
  }).toEqual({ statuses: [400, 200, 409], modelRequestsWithLoneSurrogate: 0 });
});
