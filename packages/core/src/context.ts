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
  /**
   * The `id` of the `tool_use` block being answered: the idempotency key to pass to downstream
   * systems (a payment API's `Idempotency-Key`, a unique column). With a run store a call's
   * result is journaled and never run again, but a process that dies between a write's own side
   * effect and its journal entry runs it again on recovery, with the same id.
   */
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
