import type { ParameterBinding } from '../manifest/manifest.types';
import type { ToolContext } from '../context';

/** Lays the validated input out as the method's positional arguments. */
export function bindArguments(parameters: readonly ParameterBinding[], input: object, ctx: ToolContext<any>): unknown[] {
  return parameters.map((binding) => {
    switch (binding.kind) {
      case 'param':
        return (input as Record<string, unknown>)[binding.property];
      case 'input':
        return input;
      case 'ctx':
        return ctx;
    }
  });
}
