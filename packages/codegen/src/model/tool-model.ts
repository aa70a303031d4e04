import type { JsonSchema } from '../schema/json-schema';

export type ParameterBinding = { kind: 'param'; property: string } | { kind: 'input' } | { kind: 'ctx' };

/** The Anthropic tool definition as it will be sent (`Tool` of `@anthropic-ai/sdk`). */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: JsonSchema;
  input_examples?: Array<Record<string, unknown>>;
  strict?: boolean;
  cache_control?: unknown;
  allowed_callers?: string[];
  defer_loading?: boolean;
  eager_input_streaming?: boolean;
}

/** What the input class of a tool is: generated from `@Param`s, or the user's `@Input` DTO. */
export type ToolInput =
  | { kind: 'params'; className: string }
  | { kind: 'dto'; className: string; file: string };

/** A user class the generated module imports. */
export interface ClassReference {
  className: string;
  file: string;
}

/** `ValuePlan` of `@toolwright/core`, before the emitter writes it. */
export type ValuePlanModel =
  | 'json'
  | 'date'
  | 'url'
  | { array: ValuePlanModel }
  | { tuple: ValuePlanModel[] }
  | { shape: string };

/** `ShapePlan` of `@toolwright/core`, with the class as a reference to import. */
export interface ShapePlanModel {
  class?: ClassReference;
  properties?: Record<string, ValuePlanModel>;
  additional?: ValuePlanModel;
}

export interface InstancePlanModel extends Omit<ShapePlanModel, 'class'> {
  shapes?: Record<string, ShapePlanModel>;
}

/** Everything the emitter needs about one tool; built from the source, free of ts-morph. */
export interface ToolModel {
  name: string;
  provider: { className: string; file: string };
  method: string;
  effect: 'read' | 'write';
  /** The schema the run time checks: every constraint, strict or not. */
  inputSchema: JsonSchema;
  /** What the model sees; for strict tools, with unsupported keywords moved into descriptions. */
  definition: ToolDefinition;
  input: ToolInput;
  parameters: ParameterBinding[];
  /** How the run time turns the checked JSON into what the method receives. */
  instancePlan: InstancePlanModel;
  /** The schema of an object-typed return value (MCP `outputSchema`). */
  outputSchema?: JsonSchema;
  /** `file:line:col` of the method, for messages. */
  location: string;
}
