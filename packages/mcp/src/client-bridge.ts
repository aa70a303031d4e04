import type { RequestId, Server, ServerContext, ServerNotification } from '@modelcontextprotocol/server';
import type { ElicitationRequest, ToolClient, ToolLogLevel } from '@toolwright/core';
import type { SessionLogLevel } from './log-level';

/**
 * The `tools/call` request a tool's client messages belong to, however it reached the server:
 * through the SDK's request handler or answered directly (`DirectCalls`).
 */
export interface CallRequestLink {
  id: RequestId;
  /** 2025-11-25 (a session, `initialize`) rather than 2026-07-28 (a `_meta` envelope). */
  legacy: boolean;
  /** Aborts when the call is cancelled; read only when a form is sent. */
  readonly signal: AbortSignal;
  /** Sends a notification related to the request: over Streamable HTTP, on the call's own stream. */
  notify(notification: ServerNotification): Promise<void>;
  /** A log message, if the client's level lets it through. */
  log(level: ToolLogLevel, data: unknown): Promise<void>;
}

/** The link of a request the SDK's handler received. */
export function linkOf(ctx: ServerContext, level: SessionLogLevel): CallRequestLink {
  const legacy = isLegacyEra(ctx);
  const notify = ctx.mcpReq.notify;
  return {
    id: ctx.mcpReq.id,
    legacy,
    signal: ctx.mcpReq.signal,
    notify,
    // On 2026-07-28 the level travels in each request's envelope, which the SDK reads.
    log: legacy ? (lvl, data) => (level.allows(lvl) ? notify({ method: 'notifications/message', params: { level: lvl, data } }) : Promise.resolve()) : (lvl, data) => ctx.mcpReq.log(lvl, data),
  };
}

/**
 * What a tool's `ctx` can ask of the MCP client of one `tools/call`: progress on the request's
 * progress token (nothing when the client sent none), log messages filtered by the level the
 * client set, and a form for the client's user when the client declared elicitation and the
 * revision lets the server ask mid-call (2025-11-25; 2026-07-28 has no server-to-client requests).
 */
export function clientOf(server: Server, link: CallRequestLink, progressToken: string | number | undefined): ToolClient {
  const client: ToolClient = { log: (level, data) => link.log(level, data) };
  if (progressToken !== undefined) {
    client.progress = (progress, total, message) =>
      link.notify({ method: 'notifications/progress', params: { progressToken, progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) } });
  }
  if (link.legacy && server.getClientCapabilities()?.elicitation) {
    client.elicit = async (request: ElicitationRequest) => {
      // Related to the call, as the approval forms are sent: over Streamable HTTP the
      // form then travels on the call's own SSE stream (kept and replayed if it drops), not on the
      // client's optional GET stream, which a client may open late or never (the form was lost).
      const related = { relatedRequestId: link.id, signal: link.signal };
      const answer = await server.elicitInput({ mode: 'form', message: request.message, requestedSchema: request.schema as never }, related);
      return answer.action === 'accept' ? { action: 'accept', content: (answer.content ?? {}) as Record<string, unknown> } : { action: answer.action };
    };
  }
  return client;
}

/** A request of the 2026-07-28 revision carries its `_meta` envelope; a 2025 one never does. */
export function isLegacyEra(ctx: ServerContext): boolean {
  return ctx.mcpReq.envelope === undefined;
}
