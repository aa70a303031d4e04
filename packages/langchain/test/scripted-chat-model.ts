import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';

// A scripted LangChain chat model with tool calls, like @langchain/core's fake chat models but
// with one answer per turn: each turn is either text or the tool calls the model "writes".
// Streamed, each call's arguments arrive as two `tool_call_chunks`. Every prompt is kept.

export interface ScriptedCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export type Turn = ScriptedCall[] | string;

export class ScriptedChatModel extends BaseChatModel {
  readonly prompts: BaseMessage[][] = [];
  private at = 0;

  constructor(private readonly turns: Turn[]) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const message = this.message(this.next(messages));
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }

  override async *_streamResponseChunks(messages: BaseMessage[], _options: unknown, runManager?: CallbackManagerForLLMRun): AsyncGenerator<ChatGenerationChunk> {
    const turn = this.next(messages);
    const chunks: AIMessageChunk[] = [];
    if (typeof turn === 'string') chunks.push(new AIMessageChunk({ content: turn }));
    else
      for (const [index, c] of turn.entries()) {
        const json = JSON.stringify(c.input);
        const half = Math.floor(json.length / 2);
        chunks.push(new AIMessageChunk({ content: '', tool_call_chunks: [{ type: 'tool_call_chunk', index, id: c.id, name: c.name, args: json.slice(0, half) }] }));
        chunks.push(new AIMessageChunk({ content: '', tool_call_chunks: [{ type: 'tool_call_chunk', index, args: json.slice(half) }] }));
      }
    for (const message of chunks) {
      const chunk = new ChatGenerationChunk({ text: typeof message.content === 'string' ? message.content : '', message });
      yield chunk;
      // What a provider does for each chunk: LangGraph's `messages` stream mode listens here.
      await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, { chunk });
    }
  }

  private message(turn: Turn): AIMessage {
    if (typeof turn === 'string') return new AIMessage(turn);
    return new AIMessage({ content: '', tool_calls: turn.map((c) => ({ type: 'tool_call', id: c.id, name: c.name, args: c.input })) });
  }

  private next(messages: BaseMessage[]): Turn {
    this.prompts.push(messages);
    const turn = this.turns[this.at++];
    if (turn === undefined) throw new Error(`the script has ${this.turns.length} turns; the agent asked for more`);
    return turn;
  }

  /** What went back to the model for each call before turn `turn`: id, status, text. */
  resultsSent(turn: number): Array<[string, string, string]> {
    return this.prompts[turn].flatMap((m) => (m.getType() === 'tool' ? [[(m as any).tool_call_id, (m as any).status, String(m.content)]] : []));
  }
}
