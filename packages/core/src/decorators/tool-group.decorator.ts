import { TOOL_GROUP } from './metadata-keys';
import { ToolDefinitionError } from './definition-error';
import { isStandardDecoratorContext, standardDecoratorError } from './standard-decorator';
import type { ToolGroupOptions } from './tool-options';

const PREFIX_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Optional name prefix for every tool of the class. */
export function ToolGroup(options: ToolGroupOptions = {}): ClassDecorator {
  // The second parameter exists only when the decorator is called in the standard (TC39) form.
  return ((target: Function, context?: unknown) => {
    if (isStandardDecoratorContext(context)) throw standardDecoratorError('ToolGroup', context);
    if (options.prefix !== undefined && !PREFIX_PATTERN.test(options.prefix)) {
      throw new ToolDefinitionError(
        `@ToolGroup on ${target.name}: prefix "${options.prefix}" must match ${PREFIX_PATTERN} ` +
          '(letters, digits, "_" and "-").',
      );
    }
    Reflect.defineMetadata(TOOL_GROUP, options, target);
  }) as ClassDecorator;
}
