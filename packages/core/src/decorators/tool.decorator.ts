import { TOOL_METHODS, TOOL_OPTIONS, TOOL_PARAMS } from './metadata-keys';
import { ToolDefinitionError, describeMember } from './definition-error';
import { isStandardDecoratorContext, standardDecoratorError } from './standard-decorator';
import { TOOL_NAME_PATTERN } from '../manifest/tool-name';
import type { ParamMetadata, ToolCaller, ToolOptions } from './tool-options';

/** The callers `allowed_callers` accepts in @anthropic-ai/sdk 1.14. */
export const TOOL_CALLERS: readonly ToolCaller[] = ['direct', 'code_execution_20250825', 'code_execution_20260120', 'code_execution_20260521'];

function isToolCaller(value: unknown): value is ToolCaller {
  return TOOL_CALLERS.includes(value as ToolCaller);
}

/** Marks a method as a Claude tool. `effect` defaults to `'write'`. */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    // Checked first: in the standard form `target` is the method itself, which reads as "static".
    const context: unknown = propertyKey;
    if (isStandardDecoratorContext(context)) throw standardDecoratorError('Tool', context);
    const where = describeMember(target, propertyKey);
    if (typeof target === 'function') {
      throw new ToolDefinitionError(`@Tool on static method ${where}: tools are instance methods; remove "static".`);
    }
    if (typeof propertyKey !== 'string') {
      throw new ToolDefinitionError(`@Tool on ${where}: the method needs a string name.`);
    }
    if (typeof descriptor.value !== 'function') {
      throw new ToolDefinitionError(`@Tool on ${where}: only methods can be tools, not accessors.`);
    }
    if (options.name !== undefined && !TOOL_NAME_PATTERN.test(options.name)) {
      throw new ToolDefinitionError(
        `@Tool on ${where}: name "${options.name}" must match ${TOOL_NAME_PATTERN} (letters, digits, "_" and "-", at most 128).`,
      );
    }
    if (options.effect !== undefined && options.effect !== 'read' && options.effect !== 'write') {
      throw new ToolDefinitionError(`@Tool on ${where}: effect must be 'read' or 'write', got ${JSON.stringify(options.effect)}.`);
    }
    if (options.effect === 'read' && options.destructive === true) {
      throw new ToolDefinitionError(`@Tool on ${where}: a read cannot be destructive; declare effect: 'write', or drop destructive.`);
    }
    if (options.approval !== undefined && typeof options.approval !== 'boolean' && typeof options.approval !== 'function') {
      throw new ToolDefinitionError(
        `@Tool on ${where}: approval must be true, false or a function (ctx, input) => boolean, got ${JSON.stringify(options.approval)}.`,
      );
    }
    if (options.callers !== undefined && (!Array.isArray(options.callers) || options.callers.length === 0 || !options.callers.every(isToolCaller))) {
      throw new ToolDefinitionError(
        `@Tool on ${where}: callers must be a non-empty list of ${TOOL_CALLERS.map((c) => `'${c}'`).join(', ')}, got ${JSON.stringify(options.callers)}.`,
      );
    }
    for (const key of ['timeoutMs', 'maxResultChars'] as const) {
      const value = options[key];
      if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
        throw new ToolDefinitionError(`@Tool on ${where}: ${key} must be a positive integer, got ${value}.`);
      }
    }
    checkParams(where, Reflect.getOwnMetadata(TOOL_PARAMS, target, propertyKey) ?? []);
    Reflect.defineMetadata(TOOL_OPTIONS, options, target, propertyKey);
    const methods: string[] = Reflect.getOwnMetadata(TOOL_METHODS, target) ?? [];
    Reflect.defineMetadata(TOOL_METHODS, [...methods, propertyKey], target);
  };
}

function checkParams(where: string, params: ParamMetadata[]): void {
  const inputs = params.filter((p) => p.kind === 'input');
  if (inputs.length > 1) {
    throw new ToolDefinitionError(`@Tool ${where}: more than one @Input(); a tool has one input object, keep one.`);
  }
  if (inputs.length === 1 && params.some((p) => p.kind === 'param')) {
    throw new ToolDefinitionError(
      `@Tool ${where}: @Input() mixed with @Param(); use either one DTO (@Input) or one @Param per property.`,
    );
  }
  if (params.filter((p) => p.kind === 'ctx').length > 1) {
    throw new ToolDefinitionError(`@Tool ${where}: more than one @Ctx(); keep one.`);
  }
}
