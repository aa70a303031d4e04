import { TOOL_GROUP, TOOL_METHODS, TOOL_OPTIONS, TOOL_PARAMS } from './metadata-keys';
import type { ParamMetadata, ToolGroupOptions, ToolOptions } from './tool-options';
import { deriveToolName } from '../manifest/tool-name';

/** What the decorators recorded about one tool method. */
export interface DecoratedTool {
  method: string;
  name: string;
  options: ToolOptions;
  params: ParamMetadata[];
}

/** The `@Tool` methods of a class, its base classes included. */
export function readDecoratedTools(cls: Function): DecoratedTool[] {
  const methods = new Set<string>();
  for (let proto = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const m of (Reflect.getOwnMetadata(TOOL_METHODS, proto) as string[] | undefined) ?? []) methods.add(m);
  }
  const group: ToolGroupOptions | undefined = Reflect.getMetadata(TOOL_GROUP, cls);
  return [...methods].map((method) => {
    const options: ToolOptions = Reflect.getMetadata(TOOL_OPTIONS, cls.prototype, method) ?? {};
    const params: ParamMetadata[] = Reflect.getMetadata(TOOL_PARAMS, cls.prototype, method) ?? [];
    return {
      method,
      name: options.name ?? deriveToolName(method, group?.prefix),
      options,
      params: [...params].sort((a, b) => a.index - b.index),
    };
  });
}
