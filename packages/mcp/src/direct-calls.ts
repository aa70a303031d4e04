import type { JSONRPCMessage, MessageExtraInfo, RequestId, Server, ServerNotification, Transport } from '@modelcontextprotocol/server';
import { TRACEPARENT_META_KEY, TRACESTATE_META_KEY } from '@modelcontextprotocol/server';
import type { ToolLogLevel } from '@toolwright/core';
import type { CallRequestLink } from './client-bridge';
import type { SessionLogLevel } from './log-level';
import type { CallRequest } from './session-calls';

/** A `tools/call` as `DirectCalls` hands it to the server: what the SDK's handler would have been given. */
export type DirectCall = CallRequest & { link: DirectCallLink };

/** Answers one direct call: its `tools/call` result. Must not reject. */
export type DirectCallAnswer = (call: DirectCall) => Promise<Record<string, unknown>>;

/** The `_meta` keys of a 2025-11-25 `tools/call` that a direct answer honours; any other goes through the SDK. */
const KNOWN_META = new Set<string>(['progressToken', TRACEPARENT_META_KEY, TRACESTATE_META_KEY]);

/**
 * The `tools/call` requests of a 2025-11-25 session, answered without the SDK's per-request
 * machinery: its request context, its `AbortController`, and its validation of every request
 * twice and of every result once (together about as much CPU as the call itself, and an
 * `AbortSignal` per request loads the garbage collector). Everything else, and any call this
 * does not recognise as plain, goes to the SDK unchanged, which answers or refuses it as before.
 *
 * What the SDK's handler gives a call is kept: the answer goes out as the request's response,
 * or not at all once `notifications/cancelled` named it or the transport closed; progress, log
 * messages and forms are related to the request; calls start in arrival order, after the
 * messages that arrived before them were handed to their handlers (one microtask, as the SDK).
 */
export class DirectCalls {
  private readonly inFlight = new Map<RequestId, DirectCallLink>();

  constructor(
    private readonly server: Server,
    private readonly level: SessionLogLevel,
    private readonly answer: DirectCallAnswer,
  ) {}

  /** Puts this in front of the SDK's dispatch of `transport`'s messages; call once the server is connected. */
  intercept(transport: Transport): void {
    // Set by the SDK's connect, which has run.
    const dispatch = transport.onmessage!;
    transport.onmessage = (message, extra) => {
      if (!this.take(message, extra, transport)) dispatch(message, extra);
    };
  }

  /** Cancels every call in flight: the transport closed, and no answer can go out. */
  cancelAll(reason: unknown): void {
    // Each leaves the map when its answer settles.
    for (const link of this.inFlight.values()) link.cancel(reason);
  }

  /** Whether `message` was answered here; a cancellation is also passed on (the SDK's own calls may be named). */
  private take(message: JSONRPCMessage, extra: MessageExtraInfo | undefined, transport: Transport): boolean {
    if (!('method' in message)) return false;
    if (!('id' in message)) {
      if (message.method === 'notifications/cancelled') {
        const params = message.params as { requestId?: RequestId; reason?: unknown } | undefined;
        if (params?.requestId !== undefined) this.inFlight.get(params.requestId)?.cancel(params.reason);
      }
      return false;
    }
    if (message.method !== 'tools/call' || !this.isPlain(message.params)) return false;
    const { name, arguments: input = {}, _meta: meta } = message.params as { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> };
    const link = new DirectCallLink(this.server, this.level, message.id);
    this.inFlight.set(message.id, link);
    const call: DirectCall = { link, name, input, meta, sessionId: transport.sessionId, authInfo: extra?.authInfo, closeStream: extra?.closeSSEStream };
    // The SDK hands a request to its handler one microtask after it arrives; so does this.
    void Promise.resolve()
      .then(() => this.answer(call))
      .then(
        (result) => {
          if (link.cancelled) return;
          return transport.send({ jsonrpc: '2.0', id: message.id, result });
        },
        (error: unknown) => {
          // `answer` does not reject; if it ever did, the client still gets an answer.
          if (link.cancelled) return;
          this.server.onerror?.(error instanceof Error ? error : new Error(String(error)));
          return transport.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'Internal error' } });
        },
      )
      .catch((error: unknown) => this.server.onerror?.(new Error(`Failed to send response: ${String(error)}`)))
      .finally(() => {
        if (this.inFlight.get(message.id) === link) this.inFlight.delete(message.id);
      });
    return true;
  }

  /**
   * A 2025-11-25 session's well-formed call that asks for nothing but what is answered here: the
   * SDK checks and answers everything else (a malformed call gets its error, a 2026-07-28 request
   * its envelope handling). Only a 2025-11-25 session has client capabilities: its `initialize`
   * brought them.
   */
  private isPlain(params: unknown): boolean {
    if (this.server.getClientCapabilities() === undefined) return false;
    if (!isPlainObject(params) || typeof params.name !== 'string') return false;
    for (const key in params) if (key !== 'name' && key !== 'arguments' && key !== '_meta') return false;
    if (params.arguments !== undefined && !isPlainObject(params.arguments)) return false;
    const meta = params._meta;
    if (meta === undefined) return true;
    if (!isPlainObject(meta)) return false;
    for (const key in meta) if (!KNOWN_META.has(key)) return false;
    const token = meta.progressToken;
    return token === undefined || typeof token === 'string' || typeof token === 'number';
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One direct call's link to its request, and its cancellation: `cancel` reaches the container's
 * call once it has started (`started`); before that, the call sees `cancelled` and does not start.
 */
export class DirectCallLink implements CallRequestLink {
  readonly legacy = true;
  cancelled = false;
  private reason: unknown;
  private controller?: AbortController;
  private cancelStarted?: (reason: unknown) => void;

  constructor(
    private readonly server: Server,
    private readonly level: SessionLogLevel,
    readonly id: RequestId,
  ) {}

  /** Made only when a form is sent; aborted with the call. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** The container's call began (not cancelled before it did): `cancel` now reaches it. */
  started(cancel: (reason: unknown) => void): void {
    this.cancelStarted = cancel;
  }

  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.cancelStarted?.(reason);
  }

  notify(notification: ServerNotification): Promise<void> {
    return this.server.notification(notification, { relatedRequestId: this.id });
  }

  log(level: ToolLogLevel, data: unknown): Promise<void> {
    return this.level.allows(level) ? this.notify({ method: 'notifications/message', params: { level, data } }) : Promise.resolve();
  }
}
