/** Where toolwright reports what the operator must see: unexpected exceptions with their stack. */
export interface ToolLogger {
  error(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
}

/** Writes to stderr through `console`; the default logger. */
export const consoleLogger: ToolLogger = {
  error: (message, ...details) => console.error(message, ...details),
  warn: (message, ...details) => console.warn(message, ...details),
};

/** What a tool method receives through `@Ctx()`. */
export interface ToolContext<TAuth = unknown> {
  /** The `id` of the `tool_use` block being answered. */
  readonly toolUseId: string;
  readonly toolName: string;
  /**
   * The authenticated identity of the session, passed by the application. Decide permissions
   * from this, never from a field of the input: the model writes the input.
   */
  readonly auth: TAuth;
  /** Aborted on timeout or when the batch is cancelled; pass it to I/O that accepts one. */
  readonly signal: AbortSignal;
  readonly logger: ToolLogger;
}
