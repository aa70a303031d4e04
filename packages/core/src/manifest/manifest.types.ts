import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolEffect } from '../decorators/tool-options';

/** A class that can be instantiated (providers, input DTOs). */
export type Class<T = object> = abstract new (...args: any[]) => T;

/** How one method parameter is filled from a validated call. */
export type ParameterBinding =
  /** One property of the validated input object (a `@Param`). */
  | { kind: 'param'; property: string }
  /** The whole validated input object (an `@Input` DTO). */
  | { kind: 'input' }
  /** The call's `ToolContext` (a `@Ctx`). */
  | { kind: 'ctx' };

/** One tool, as `tools-codegen` emits it. */
export interface ToolManifestEntry {
  /** The class that holds the tool method. */
  provider: Class;
  /** The method's name on that class. */
  method: string;
  /** What the model sees; sent as-is in `tools`. */
  definition: Tool;
  effect: ToolEffect;
  /** class-validator class the input is transformed into and validated against. */
  inputClass: new () => object;
  /** One binding per method parameter, in parameter order. */
  parameters: readonly ParameterBinding[];
  /** JSON Schema of the method's object-typed return value (MCP `outputSchema`). */
  outputSchema?: Record<string, unknown>;
}

export interface ToolManifest {
  readonly entries: readonly ToolManifestEntry[];
}
