import { registerParam } from './param-registry';
import type { ParamOptions } from './tool-options';

/**
 * One property of the tool's input object, named after the parameter. Its type comes from the
 * TypeScript type; the options add constraints that `tools-codegen` writes into the schema.
 */
export function Param(options: ParamOptions = {}): ParameterDecorator {
  return registerParam('param', options);
}
