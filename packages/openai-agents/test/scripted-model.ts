import { Usage, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';

// A scripted Agents SDK model: each turn is what the model "says", as the Responses API provider
// hands it over. Every request is kept, so a test can read what went back to the model.

export interface ScriptedCall {
  id: string;
  name: string;
  input: unknown;
}

export type Turn = ScriptedCall[] | string;

function output(turn: Turn): ModelResponse['output'] {
  if (typeof turn === 'string') return [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn }] }];
  return turn.map((c) => ({ type: 'function_call', callId: c.id, name: c.name, arguments: JSON.stringify(c.input), status: 'completed' }));
}

export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  private at = 0;

  /** `reportsUsage: false` is a model whose responses count no request (`new Usage()`). */
  constructor(
    private readonly turns: Turn[],
    private readonly options: { reportsUsage?: boolean } = {},
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    // As the SDK's OpenAI models do: one request per response.
    const usage = this.options.reportsUsage === false ? new Usage() : new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    return { usage, output: output(this.next()), responseId: `resp_${this.at}` };
  }

  /** The arguments of each call stream as two raw `function_call_arguments` deltas, then the response. */
  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    this.requests.push(request);
    const turn = this.next();
    yield { type: 'response_started' as const };
    if (typeof turn !== 'string')
      for (const c of turn) {
        const json = JSON.stringify(c.input);
        const half = Math.floor(json.length / 2);
        for (const delta of [json.slice(0, half), json.slice(half)]) yield { type: 'model' as const, event: { type: 'response.function_call_arguments.delta', item_id: c.id, delta } };
      }
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    yield { type: 'response_done', response: { id: `resp_${this.at}`, usage, output: output(turn) } } as StreamEvent;
  }

  /** What went back to the model for each call, in the request after `turn`: id and output text. */
  resultsSent(turn: number): Array<[string, string]> {
    const input = this.requests[turn].input;
    if (typeof input === 'string') return [];
    return input.flatMap((item) => {
      if (item.type !== 'function_call_result') return [];
      const out = item.output as unknown;
      return [[item.callId, typeof out === 'string' ? out : (out as { text: string }).text]];
    });
  }

  private next(): Turn {
    const turn = this.turns[this.at++];
    if (turn === undefined) throw new Error(`the script has ${this.turns.length} turns; the agent asked for more`);
    return turn;
  }
}
