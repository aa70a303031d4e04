import type { AuthInfo } from '@modelcontextprotocol/server';
import type { ToolEffect } from '@toolwright/core';
import { ArrivalOrder } from './arrival-order';
import type { CallRequestLink } from './client-bridge';
import type { PrincipalOrders } from './principal-orders';

/** One `tools/call`, however it reached the server: through the SDK's handler or directly. */
export interface CallRequest {
  name: string;
  input: Record<string, unknown>;
  meta: { progressToken?: string | number; [key: string]: unknown } | undefined;
  sessionId: string | undefined;
  authInfo: AuthInfo | undefined;
  link: CallRequestLink;
  /** Over Streamable HTTP with an event store: closes the call's SSE stream (the client reconnects). */
  closeStream: (() => void) | undefined;
}

/**
 * The calls of one session: each admitted in its order (the session's on 2025-11-25 and stdio,
 * its principal's on 2026-07-28), counted as running until answered (a session is not idle
 * while one runs), and its stream closed after `closeStreamsAfterMs` when the transport can.
 */
export class SessionCalls {
  /** Admitted and not yet answered. */
  running = 0;
  private readonly order: ArrivalOrder;
  private readonly finished = () => void this.running--;

  constructor(
    maxConcurrency: number,
    private readonly principals: PrincipalOrders,
    private readonly effectOf: (name: string) => ToolEffect | undefined,
    /** Whose order a 2026-07-28 call keeps: the session's principal, or its request's. */
    private readonly principalOf: (authInfo: AuthInfo | undefined) => string,
    private readonly closeStreamsAfterMs: number | undefined,
  ) {
    this.order = new ArrivalOrder(maxConcurrency);
  }

  admit<T>(request: CallRequest, work: () => Promise<T>): Promise<T> {
    // An unknown tool may write, as on the Claude path: nobody knows its effect.
    const isWrite = this.effectOf(request.name) !== 'read';
    this.running++;
    const done = request.link.legacy ? this.order.admit(isWrite, work) : this.principals.admit(this.principalOf(request.authInfo), isWrite, work);
    done.then(this.finished, this.finished);
    const close = request.closeStream;
    if (this.closeStreamsAfterMs !== undefined && close) {
      const timer = setTimeout(close, this.closeStreamsAfterMs).unref();
      const answered = () => clearTimeout(timer);
      done.then(answered, answered);
    }
    return done;
  }
}
