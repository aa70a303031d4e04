import type { CacheControlEphemeral, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolContext } from '../context';

/** Who may call a tool: the model itself (`'direct'`) or code the model runs in code execution. */
export type ToolCaller = NonNullable<Tool['allowed_callers']>[number];

/** Whether a tool only reads (safe to run beside other reads) or may change something. */
export type ToolEffect = 'read' | 'write';

/**
 * Whether a call waits for a person's decision: always (`true`), never (`false`), or as a
 * predicate decides from the validated input (e.g. refunds over a limit). Called with `this`
 * bound to the provider instance, like `guard`.
 */
export type ToolApproval<TAuth = any, TInput = any> =
  | boolean
  | ((this: any, ctx: ToolContext<TAuth>, input: TInput) => boolean | Promise<boolean>);

export interface ToolOptions<TAuth = any, TInput = any> {
  /** Overrides the derived name (`<group prefix>_<snake_case(method)>`). */
  name?: string;
  /** `'write'` by default: a tool is serialized unless it says it is safe to run concurrently. */
  effect?: ToolEffect;
  /** Ask the API for grammar-constrained arguments (`strict: true` in the definition). */
  strict?: boolean;
  /** Per-call time limit; the container default applies when absent. */
  timeoutMs?: number;
  /** Longer results are cut with a visible marker; the container default applies when absent. */
  maxResultChars?: number;
  /**
   * Checked after validation and before the method; `false` answers "not allowed". Called with
   * `this` bound to the provider instance, so a `function` guard can use injected services.
   */
  guard?: (this: any, ctx: ToolContext<TAuth>, input: TInput) => boolean | Promise<boolean>;
  /**
   * Who may call it (`allowed_callers`): `['code_execution_20250825']` lets code the model runs
   * in the code execution tool call it (programmatic tool calling); the API's default is
   * `['direct']`. A call from a caller not listed is answered as an error and never runs.
   */
  callers?: readonly ToolCaller[];
  /**
   * Leave the definition out of the model's context until the tool search tool finds it
   * (`defer_loading: true`); the container's `toolSearch` option adds that tool.
   */
  deferLoading?: boolean;
  /** Stream this tool's input as the model writes it, without buffering (`eager_input_streaming`). */
  eagerInputStreaming?: boolean;
  /** Adds `cache_control` to this tool's definition. */
  cacheControl?: CacheControlEphemeral;
  /** A human-readable name for clients that show tools to people (MCP `title`). */
  title?: string;
  /** Calling it again with the same input has no further effect (MCP `idempotentHint`). */
  idempotent?: boolean;
  /** It may delete or overwrite, not only add (MCP `destructiveHint`). */
  destructive?: boolean;
  /** It reaches beyond the application's own data: the web, third-party systems (MCP `openWorldHint`). */
  openWorld?: boolean;
  /**
   * Ask a person before a call runs; decided after validation and guard. When set, it overrides
   * the container's approval policy for this tool (`false` exempts a write from `'writes'`).
   */
  approval?: ToolApproval<TAuth, TInput>;
}

export interface ParamOptions {
  /** Property name in the input object; the parameter's own name by default. */
  name?: string;
  description?: string;
  pattern?: RegExp | string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  enum?: readonly (string | number | boolean)[];
  optional?: boolean;
}

export interface ToolGroupOptions {
  /** Prefix of every tool name of the class: `prefix_<snake_case(method)>`. */
  prefix?: string;
}

/** How one method parameter is filled at call time. */
export type ParamKind = 'param' | 'input' | 'ctx';

export interface ParamMetadata {
  index: number;
  kind: ParamKind;
  options?: ParamOptions;
}
