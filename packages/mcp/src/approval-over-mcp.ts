import { createHash, randomBytes } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, createRequestStateCodec, inputRequired, inputResponse, type CallToolResult, type InputRequiredResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { ToolCall, ToolContainer } from '@toolwright/core';
import { isLegacyEra } from './client-bridge';

/** What to do with a call: run it, or answer with this result (a refusal, or a question for the user). */
export type ApprovalVerdict = { run: true } | { run: false; result: CallToolResult | InputRequiredResult };

const KEY = 'approval';
/** How long an approval form's answer may come back; the same bounds how long a used one is remembered. */
const TTL_SECONDS = 600;

/**
 * Approval over MCP. A call the container's policy (or the tool's `approval` option) holds for a
 * person is asked about through the client: a confirm form showing the call's input, sent within
 * the call on 2025-11-25, or as a 2026-07-28 input request (the client retries the call with the
 * answer). A client that cannot ask its user gets an error result saying a person must approve the
 * call in the app. The call never runs without a "yes" to a form this server sent for it.
 *
 * On 2026-07-28 the answer counts only beside the sealed state minted with the form, naming the
 * call that was shown: an answer without it (a client can write `inputResponses` into any call),
 * for another tool or input, or from another principal, is refused. Each state carries a random
 * nonce, used up when its call runs: the same approved retry sent again (a proxy retrying a POST
 * that timed out, or anyone replaying it) is refused, so one "yes" runs the call once. On
 * 2025-11-25 no answer a request carries is read at all.
 */
export class McpApproval {
  private readonly codec = createRequestStateCodec<ApprovalState>({
    // One process answers both rounds of a flow on the same endpoint; behind a load balancer the
    // retry may land elsewhere and is then answered -32602: the call is made again, and asked again, never run unasked.
    key: randomBytes(32),
    ttlSeconds: TTL_SECONDS,
    // The principal comes from the session (mcpHttpHandler's `principal` option) or the request's
    // AuthInfo: the caller knows which, so it hands it in beside the context.
    bind: (ctx) => (ctx as PrincipalContext).principal,
  });
  private readonly used = new UsedNonces(TTL_SECONDS * 1000);

  /** For `ServerOptions.requestState.verify`: a state minted for `principal`, or it throws. */
  verify(state: string, ctx: ServerContext, principal: string): Promise<ApprovalState> {
    return this.codec.verify(state, boundTo(ctx, principal));
  }

  /** Whether any call could need a person (the container's policy or a tool's `approval`): without that, no call is checked. */
  readonly mayAsk: boolean;

  constructor(private readonly tools: ToolContainer<any>) {
    this.mayAsk = tools.asksApproval;
  }

  async decide(server: Server, ctx: ServerContext, call: ToolCall, auth: unknown, principal: string): Promise<ApprovalVerdict> {
    const check = await this.tools.checkApprovals([{ type: 'tool_use', id: call.id, name: call.name, input: call.input }], { auth });
    const failed = check.answered[0];
    if (failed) return refuse(typeof failed.content === 'string' ? failed.content : `Internal error in ${call.name}.`);
    if (check.pending.length === 0) return { run: true };

    // Checked before any answer is read: an answer from a client that cannot be asked was never
    // asked for (a client can put `inputResponses` in any call), so it is refused, not honoured.
    if (!canAsk(server, ctx)) {
      return refuse(`Not run: ${call.name} needs a person's approval, and this MCP client cannot ask its user. Approve it in the app instead.`);
    }
    if (isLegacyEra(ctx)) return askWithinCall(server, ctx, call);

    const fingerprint = fingerprintOf(call);
    const answer = inputResponse(ctx.mcpReq.inputResponses, KEY);
    if (answer.kind === 'elicit') {
      // Only an answer to a form this server sent counts: the client's retry carries back the state
      // minted for this call. An answer without it was written by the client, not given by its user.
      const state = ctx.mcpReq.requestState<ApprovalState>();
      if (state?.call !== fingerprint || typeof state.nonce !== 'string') return refuse(`Not run: that approval was not asked for this call; call ${call.name} again to be asked.`);
      const verdict = approved(answer.action, answer.content, call);
      // Checked and used up with no await between, so two copies of one retry cannot both pass.
      if (verdict.run && !this.used.take(state.nonce)) return refuse(`Not run: that approval was already used; call ${call.name} again to be asked.`);
      return verdict;
    }
    const requestState = await this.codec.mint({ call: fingerprint, nonce: randomBytes(16).toString('base64url') }, boundTo(ctx, principal));
    return { run: false, result: inputRequired({ inputRequests: { [KEY]: inputRequired.elicit(formOf(call) as never) }, requestState }) };
  }
}

/** A person decides: the SDK's default request timeout (60 s) is too short; its shim gave approval forms this long too. */
const FORM_TIMEOUT_MS = 10 * 60_000;

/**
 * 2025-11-25 lets the server ask mid-call, so the form goes out within the call, related to its
 * request (over Streamable HTTP on the call's own stream), while the call keeps its place in the
 * session's order. Returning input_required instead hands the form to the SDK's shim, which calls
 * the handler again once answered: a second admission, behind calls that arrived meanwhile.
 */
async function askWithinCall(server: Server, ctx: ServerContext, call: ToolCall): Promise<ApprovalVerdict> {
  let answer: { action: string; content?: Record<string, unknown> };
  try {
    // `request`, not `elicitInput`: like the shim, a bare `elicitation: {}` (2025-06-18 clients) counts as forms.
    answer = await server.request(
      { method: 'elicitation/create', params: formOf(call) as never },
      { relatedRequestId: ctx.mcpReq.id, signal: ctx.mcpReq.signal, timeout: FORM_TIMEOUT_MS },
    );
  } catch (error) {
    // Cancelled (the SDK then sends no answer), timed out, or refused by the client.
    return refuse(`Not run: ${call.name} got no answer to its approval form (${error instanceof Error ? error.message : String(error)}). Call it again to be asked.`);
  }
  return approved(answer.action, answer.content, call);
}

function approved(action: string, content: Record<string, unknown> | undefined, call: ToolCall): ApprovalVerdict {
  return action === 'accept' && content?.approve === true ? { run: true } : refuse(`Not run: the user did not approve ${call.name}.`);
}

/** The confirm form: the call's name and input as JSON, one `approve` box unticked. */
function formOf(call: ToolCall) {
  return {
    mode: 'form' as const,
    message: `Allow ${call.name} to run with this input?\n${JSON.stringify(call.input, null, 2)}`,
    requestedSchema: { type: 'object' as const, properties: { approve: { type: 'boolean' as const, title: `Run ${call.name}`, default: false } }, required: ['approve'] },
  };
}

/** A request's context and who it speaks for: what the state is bound to. */
type PrincipalContext = ServerContext & { principal: string };

function boundTo(ctx: ServerContext, principal: string): PrincipalContext {
  return { ...ctx, principal };
}

/** What the sealed state names: the call shown in the form, and the nonce that makes its "yes" single-use. */
interface ApprovalState {
  call: string;
  nonce: string;
}

/**
 * The nonces of approvals that ran, each kept as long as its state could still verify (its
 * lifetime from now bounds what is left of it): memory bounded by the approvals of one lifetime.
 */
class UsedNonces {
  /** Nonce to when it may be forgotten; entries are added with the same lifetime, so in expiry order. */
  private readonly until = new Map<string, number>();

  constructor(private readonly lifetimeMs: number) {}

  /** Uses `nonce` up: false if it already was. */
  take(nonce: string): boolean {
    const now = Date.now();
    for (const [old, until] of this.until) {
      if (until > now) break;
      this.until.delete(old);
    }
    if (this.until.has(nonce)) return false;
    this.until.set(nonce, now + this.lifetimeMs);
    return true;
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
