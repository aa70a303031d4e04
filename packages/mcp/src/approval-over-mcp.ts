import { createHash, randomBytes } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, createRequestStateCodec, inputRequired, inputResponse, type CallToolResult, type InputRequiredResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { ToolCall, ToolContainer } from '@toolwright/core';
import { isLegacyEra } from './client-bridge';
import { principalOf } from './principal';

/** What to do with a call: run it, or answer with this result (a refusal, or a question for the user). */
export type ApprovalVerdict = { run: true } | { run: false; result: CallToolResult | InputRequiredResult };

const KEY = 'approval';

/**
 * Approval over MCP. A call the container's policy (or the tool's `approval` option) holds for a
 * person is asked about through the client: a confirm form showing the call's input, as a
 * 2026-07-28 input request (the client retries the call with the answer) or, on 2025-11-25, the
 * SDK's push-style elicitation. A client that cannot ask its user gets an error result saying a
 * person must approve the call in the app. The call never runs without a "yes".
 *
 * The answer counts only beside the sealed state minted with the form, naming the call that was
 * shown: the client's retry carries it back on 2026-07-28, the SDK's shim on 2025-11-25. An answer
 * without it (a client can write `inputResponses` into any call), for another tool or input, or
 * from another principal, is refused.
 */
export class McpApproval {
  private readonly codec = createRequestStateCodec<{ call: string }>({
    // One process answers both rounds of a flow on the same endpoint; behind a load balancer the
    // retry may land elsewhere and is then refused (and asked again), never run unasked.
    key: randomBytes(32),
    ttlSeconds: 600,
    bind: (ctx) => principalOf(ctx.http?.authInfo),
  });

  /** For `ServerOptions.requestState.verify`. */
  readonly verify = (state: string, ctx: ServerContext) => this.codec.verify(state, ctx);

  /** Whether any call could need a person (the container's policy or a tool's `approval`): without that, no call is checked. */
  readonly mayAsk: boolean;

  constructor(private readonly tools: ToolContainer<any>) {
    this.mayAsk = tools.asksApproval;
  }

  async decide(server: Server, ctx: ServerContext, call: ToolCall, auth: unknown): Promise<ApprovalVerdict> {
    const check = await this.tools.checkApprovals([{ type: 'tool_use', id: call.id, name: call.name, input: call.input }], { auth });
    const failed = check.answered[0];
    if (failed) return refuse(typeof failed.content === 'string' ? failed.content : `Internal error in ${call.name}.`);
    if (check.pending.length === 0) return { run: true };

    // Checked before any answer is read: an answer from a client that cannot be asked was never
    // asked for (a client can put `inputResponses` in any call), so it is refused, not honoured.
    if (!canAsk(server, ctx)) {
      return refuse(`Not run: ${call.name} needs a person's approval, and this MCP client cannot ask its user. Approve it in the app instead.`);
    }
    const fingerprint = fingerprintOf(call);
    const answer = inputResponse(ctx.mcpReq.inputResponses, KEY);
    if (answer.kind === 'elicit') {
      // Only an answer to a form this server sent counts: the sealed state it minted for this call
      // comes back with it (the client's retry on 2026-07-28, the SDK's shim on 2025-11-25). An
      // answer without it was written by the client, not given by its user.
      const state = ctx.mcpReq.requestState<{ call: string }>();
      if (state?.call !== fingerprint) return refuse(`Not run: that approval was not asked for this call; call ${call.name} again to be asked.`);
      if (answer.action === 'accept' && answer.content?.approve === true) return { run: true };
      return refuse(`Not run: the user did not approve ${call.name}.`);
    }
    const requestState = await this.codec.mint({ call: fingerprint }, ctx);
    const question = inputRequired.elicit({
      mode: 'form',
      message: `Allow ${call.name} to run with this input?\n${JSON.stringify(call.input, null, 2)}`,
      requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: `Run ${call.name}`, default: false } }, required: ['approve'] },
    } as never);
    return { run: false, result: inputRequired({ inputRequests: { [KEY]: question }, requestState }) };
  }
}

function refuse(text: string): ApprovalVerdict {
  return { run: false, result: { content: [{ type: 'text', text }], isError: true } };
}

/** Whether the client declared form elicitation: on its `initialize` (2025) or in this request's envelope (2026-07-28). */
function canAsk(server: Server, ctx: ServerContext): boolean {
  if (isLegacyEra(ctx)) return Boolean(server.getClientCapabilities()?.elicitation);
  const envelope = ctx.mcpReq.envelope as Record<string, { elicitation?: unknown } | undefined> | undefined;
  return Boolean(envelope?.[CLIENT_CAPABILITIES_META_KEY]?.elicitation);
}

function fingerprintOf(call: ToolCall): string {
  return createHash('sha256').update(JSON.stringify([call.name, call.input])).digest('base64url');
}
