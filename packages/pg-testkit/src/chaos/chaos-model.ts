import { text, toolUse, turn, type ScriptedReply, type ScriptedRequest } from '@toolwright/core/testing';
import { keyOf } from './protocol';

/**
 * The model of every chaos run, answering from the conversation so a run resumed by any process
 * gets the next step: a read and a transfer (approval), then a transfer (approval) and a note
 * (none), then text. Every response has tool_use ids of its own, as the API's are.
 */
export function chaosModel(): (request: ScriptedRequest) => ScriptedReply {
  let responses = 0;
  return (request) => {
    const messages = request.body.messages as Array<{ role: string; content: unknown }>;
    const key = keyOf(messages[0]?.content);
    const step = messages.filter((m) => m.role === 'assistant').length;
    const id = (name: string) => `toolu_${key}_${step}_${name}_${++responses}`;
    if (step === 0) return turn('tool_use', toolUse(id('look_up'), 'look_up', { key }), toolUse(id('transfer'), 'transfer', { key, step: 1 }));
    if (step === 1) return turn('tool_use', toolUse(id('transfer'), 'transfer', { key, step: 2 }), toolUse(id('note'), 'note', { key, step: 3 }));
    return turn('end_turn', text(`run ${key} done`));
  };
}
