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
  /**
   * Tells the client how far the call has got, when it asked to be told (an MCP request's
   * progress token); does nothing elsewhere. Never rejects.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * A log message for the client's user (MCP `notifications/message`, filtered by the level the
   * client set); does nothing elsewhere. Never rejects. Operator logs go to `logger`.
   */
  log(level: ToolLogLevel, data: unknown): Promise<void>;
  /**
   * Asks the person at the client for input through a form, when the client can be asked (MCP
   * elicitation); `undefined` on the Claude path and for clients that cannot.
   */
  readonly elicit?: (request: ElicitationRequest) => Promise<ElicitationAnswer>;
}

/** The levels of MCP's `notifications/message` (RFC 5424's). */
export type ToolLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** A form for the person at the client: a message and a flat object schema of primitive fields. */
export interface ElicitationRequest {
  message: string;
  schema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };
}

export type ElicitationAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' | 'cancel' };

/**
 * What the client of one call can do besides waiting for its answer. A transport that has a
 * client (MCP) passes one in `executeCall`'s options; the Claude path has none, and the
 * context's `progress` and `log` then do nothing.
 */
export interface ToolClient {
  progress?(progress: number, total?: number, message?: string): Promise<void>;
  log?(level: ToolLogLevel, data: unknown): Promise<void>;
  elicit?(request: ElicitationRequest): Promise<ElicitationAnswer>;
}
