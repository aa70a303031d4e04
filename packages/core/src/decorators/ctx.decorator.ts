import { registerParam } from './param-registry';

/** Receives the call's `ToolContext`; never part of the schema. */
export function Ctx(): ParameterDecorator {
  return registerParam('ctx');
}
