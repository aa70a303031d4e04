import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { ElicitationRequest, ToolClient } from '@toolwright/core';

/**
 * What a tool's `ctx` can ask of the MCP client of one `tools/call`: progress on the request's
 * progress token (nothing when the client sent none), log messages the SDK filters by the level
 * the client set, and a form for the client's user when the client declared elicitation and the
 * revision lets the server ask mid-call (2025-11-25; 2026-07-28 has no server-to-client requests).
 */
export function clientOf(server: Server, ctx: ServerContext, progressToken: string | number | undefined): ToolClient {
  const client: ToolClient = {
    log: (level, data) => ctx.mcpReq.log(level, data),
  };
  if (progressToken !== undefined) {
    client.progress = (progress, total, message) =>
      ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) } });
  }
  if (isLegacyEra(ctx) && server.getClientCapabilities()?.elicitation) {
    // Related to the call, as the SDK's own approval shim sends its forms: over Streamable HTTP the
    // form then travels on the call's own SSE stream (kept and replayed if it drops), not on the
    // client's optional GET stream, which a client may open late or never (the form was lost).
    const related = { relatedRequestId: ctx.mcpReq.id, signal: ctx.mcpReq.signal };
    client.elicit = async (request: ElicitationRequest) => {
      const answer = await ctx.mcpReq.elicitInput({ mode: 'form', message: request.message, requestedSchema: request.schema as never }, related);
      return answer.action === 'accept' ? { action: 'accept', content: (answer.content ?? {}) as Record<string, unknown> } : { action: answer.action };
    };
  }
  return client;
}

/** A request of the 2026-07-28 revision carries its `_meta` envelope; a 2025 one never does. */
export function isLegacyEra(ctx: ServerContext): boolean {
  return ctx.mcpReq.envelope === undefined;
}
