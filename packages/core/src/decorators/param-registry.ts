import { TOOL_PARAMS } from './metadata-keys';
import { ToolDefinitionError, describeMember } from './definition-error';
import type { ParamKind, ParamMetadata, ParamOptions } from './tool-options';

/** Shared body of `@Param`, `@Input` and `@Ctx`: records how a parameter is filled. */
export function registerParam(kind: ParamKind, options?: ParamOptions): ParameterDecorator {
  return (target, propertyKey, index) => {
    if (propertyKey === undefined) {
      throw new ToolDefinitionError(
        `@${decoratorName(kind)}() on a constructor parameter of ${(target as Function).name}: ` +
          'it only applies to parameters of a @Tool method.',
      );
    }
    const params: ParamMetadata[] = Reflect.getOwnMetadata(TOOL_PARAMS, target, propertyKey) ?? [];
    if (params.some((p) => p.index === index)) {
      throw new ToolDefinitionError(
        `${describeMember(target, propertyKey)}: parameter ${index} has more than one of @Param, @Input, @Ctx; keep one.`,
      );
    }
    Reflect.defineMetadata(TOOL_PARAMS, [...params, { index, kind, options }], target, propertyKey);
  };
}

function decoratorName(kind: ParamKind): string {
  return kind === 'param' ? 'Param' : kind === 'input' ? 'Input' : 'Ctx';
}
