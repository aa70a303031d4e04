import type { ParameterBinding } from '../manifest/manifest.types';
import type { ToolContext } from '../context';

/** Lays the validated input out as the method's positional arguments; `ctx` is made only for a method with a `@Ctx` parameter. */
export function bindArguments(parameters: readonly ParameterBinding[], input: object, ctx: ToolContext<any> | undefined): unknown[] {
  const args = new Array<unknown>(parameters.length);
  for (let i = 0; i < parameters.length; i++) {
    const binding = parameters[i];
    args[i] = binding.kind === 'param' ? (input as Record<string, unknown>)[binding.property] : binding.kind === 'input' ? input : ctx;
  }
  return args;
}
