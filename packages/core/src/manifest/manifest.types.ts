import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolEffect } from '../decorators/tool-options';
import type { CompiledInputCheck } from '../validation/compiled-check';

/** A class that can be instantiated (providers, input DTOs). */
export type Class<T = object> = abstract new (...args: any[]) => T;

/** How one method parameter is filled from a validated call. */
export type ParameterBinding =
  /**
   * One property of the validated input object (a `@Param`). tools-codegen declares it bare on the
   * generated input class; the container whitelists it there when it is built (only where
   * class-validator will judge the input), so a class two entries share is whitelisted for both.
   */
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
  /**
   * The schema the run time enforces, when it is not `definition.input_schema`: a strict tool
   * sends a subset and states the rest in words, and the input is still checked against all of it.
   */
  inputSchema?: Tool.InputSchema;
  /**
   * The check of that schema, compiled by tools-codegen at build time. A manifest without one
   * (written by an older tools-codegen, or by hand) is checked by Ajv, compiled on the tool's
   * first call.
   */
  inputCheck?: CompiledInputCheck;
  /** How the checked JSON becomes the instance the method receives; without one, it is kept as sent. */
  instancePlan?: InstancePlan;
  /** JSON Schema of the method's object-typed return value (MCP `outputSchema`). */
  outputSchema?: Record<string, unknown>;
}

/**
 * What a value becomes after the schema check, derived by `tools-codegen` from the TypeScript
 * types: `'json'` as sent, `'date'` an RFC 3339 date-time into a `Date`, `'url'` a URI into a
 * `URL`, arrays and tuples item by item, `{ shape }` an object built as described by
 * `InstancePlan.shapes[shape]`. `null` stays `null`; a value whose JSON type the plan does not
 * expect (the other member of a union) is kept as sent.
 */
export type ValuePlan =
  | 'json'
  | 'date'
  | 'url'
  | { readonly array: ValuePlan }
  | { readonly tuple: readonly ValuePlan[] }
  | { readonly shape: string };

/** How one object is built: an instance of `class` (its initializers are the defaults), or a plain object. */
export interface ShapePlan {
  class?: Class;
  /** Properties that are not kept as sent; the others are copied as they are. */
  properties?: Readonly<Record<string, ValuePlan>>;
  /**
   * An index signature (`Record<string, T>`): every other key, whatever its name, on an object
   * without a prototype, so keys like `toString` or `constructor` are data and nothing else.
   */
  additional?: ValuePlan;
}

/** The input object's plan: the root is an instance of the entry's `inputClass`. */
export interface InstancePlan extends Omit<ShapePlan, 'class'> {
  /** The nested objects, by name, so recursive types can refer to themselves. */
  shapes?: Readonly<Record<string, ShapePlan>>;
}

export interface ToolManifest {
  readonly entries: readonly ToolManifestEntry[];
}
