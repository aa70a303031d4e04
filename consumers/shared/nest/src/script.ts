import { text, toolUse, turn, type ScriptedTurn } from '@toolwright/core/testing';

/** The model's side of the chat the tests and the HTTP smoke run: a refused call, a corrected one, the answer. */
export const CHAT_SCRIPT: ScriptedTurn[] = [
  turn('tool_use', toolUse('toolu_01', 'orders_get_status', { numero: '1001' })),
  turn('tool_use', toolUse('toolu_02', 'orders_get_status', { numero: 'A-1001' })),
  (request) => turn('end_turn', text(`A-1001 is on its way (${request.body.messages.length} messages).`)),
];
