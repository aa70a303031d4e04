import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { checkTranscript, startScriptedServer, type ScriptedServer, type ScriptedTurn } from '@toolwright/core/testing';

export const MODEL = 'claude-haiku-5-5';

const servers: ScriptedServer[] = [];

/** A scripted server and a real SDK client pointed at it; closed (and checked) after each test. */
export async function scripted(turns: ScriptedTurn[], maxRetries = 2, promptCache = false): Promise<{ server: ScriptedServer; client: Anthropic }> {
  const server = await startScriptedServer({ turns, promptCache });
  servers.push(server);
  return { server, client: new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries }) };
}

export async function closeServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => s.close()));
}

/** The lesson's `resumo`: one line per message, blocks by type and id. */
export function summary(messages: readonly MessageParam[]): string[] {
  return messages.map((m) => {
    if (typeof m.content === 'string') return `${m.role}: text`;
    const parts = m.content.map((b) => {
      if (b.type === 'tool_result') return `tool_result(${b.tool_use_id}${b.is_error ? ', is_error' : ''})`;
      if (b.type === 'tool_use' || b.type === 'server_tool_use') return `${b.type}(${b.id})`;
      return b.type;
    });
    return `${m.role}: ${parts.join(' | ')}`;
  });
}

/** The `tool_result` blocks of the user message at `index`. */
export function resultsAt(messages: readonly MessageParam[], index: number) {
  const content = messages[index].content;
  if (typeof content === 'string') throw new Error(`message ${index} has no blocks`);
  return content.flatMap((b) => (b.type === 'tool_result' ? [b] : []));
}

export function expectValidTranscript(messages: readonly MessageParam[]): void {
  expect(checkTranscript(messages)).toEqual([]);
}
