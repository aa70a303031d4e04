import { runEngine } from './engine';
import type { ToolLoopOptions, ToolLoopResult } from './loop-options';

export type { PassThroughParams, ToolLoopOptions, ToolLoopResult } from './loop-options';

/**
 * Runs the conversation until the model stops asking for tools or a limit is reached, over
 * the stable `client.messages.create`. Every `tool_use` is answered in the next user message;
 * a tool runs only when its result can still be sent. The engine is `streamToolLoop`'s, without
 * a listener and without streaming.
 */
export function runToolLoop<TAuth>(options: ToolLoopOptions<TAuth>): Promise<ToolLoopResult> {
  return runEngine(options, { name: 'runToolLoop', streaming: false, emit: () => undefined });
}
