import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { checkRequest } from '../loop/transcript-rules';
import { featureProblem } from './feature-rules';
import { PromptCacheModel } from './prompt-cache-model';
import { scriptedStreamEvents, type StreamScript } from './stream-script';
import {
  isScriptedError,
  type ScriptedError,
  type ScriptedReply,
  type ScriptedRequest,
  type ScriptedRequestBody,
  type ScriptedTurn,
} from './turns';

export interface ScriptedServerOptions {
  /** One entry per request that passes the protocol checks, in order. */
  turns: readonly ScriptedTurn[];
  /**
   * Reports cache reads and writes in `usage` as `PromptCacheModel` estimates them from the
   * request's breakpoints (a turn's own `usage` figures win). Off by default: usage is the script's.
   */
  promptCache?: boolean;
}

export interface RecordedRequest extends ScriptedRequest {
  /** The HTTP status the server answered with. */
  status: number;
}

export interface ScriptedServer {
  /** The `baseURL` for `new Anthropic({ baseURL, apiKey })`. */
  readonly url: string;
  /** Every `POST /v1/messages` received, in order, refused ones included. */
  readonly requests: readonly RecordedRequest[];
  /** Script turns not used yet. */
  readonly remaining: number;
  /** Stops the server; rejects when a request found the script exhausted or a turn function threw. */
  close(): Promise<void>;
}

const DEFAULT_USAGE = { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/**
 * A local server speaking the Messages API (`POST /v1/messages`, and the `?beta=true` path of
 * `client.beta.messages`) that answers each request with the next scripted turn, so tests use
 * the real SDK over real HTTP. A request that breaks the ordering rules gets the API's 400. A
 * request with `stream: true` gets the turn as Server-Sent Events, as the API streams it.
 */
export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const turns = [...options.turns];
  const requests: RecordedRequest[] = [];
  const problems: string[] = [];
  let received = 0;
  let next = 0;
  const cache = options.promptCache ? new PromptCacheModel() : undefined;

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const index = received++;
    const raw = await readBody(req);
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_scripted_${index}`, ...headers });
      res.end(JSON.stringify(payload));
      return status;
    };
    const fail = (message: string) => {
      problems.push(message);
      // The script is wrong, not the client: a retry cannot help, so the SDK is told not to.
      return send(500, errorBody('api_error', `scripted server: ${message}`), { 'x-should-retry': 'false' });
    };

    const path = req.url ?? '';
    if (req.method !== 'POST' || new URL(path, 'http://scripted').pathname !== '/v1/messages') {
      fail(`no route for ${req.method} ${path}; it serves POST /v1/messages.`);
      return;
    }
    const body = parseObject(raw);
    if (!body) {
      fail(`request ${index} has no JSON object body.`);
      return;
    }
    const request: ScriptedRequest = { index, path, headers: req.headers, body };
    requests.push({ ...request, status: await respond(request) });

    async function respond(request: ScriptedRequest): Promise<number> {
      if (request.body.thread !== undefined) {
        // Declines message threads the way the API declines an unsupported request, so the
        // SDK's tool runner falls back to sending the full conversation, which can be checked.
        return send(400, errorBody('invalid_request_error', 'this server does not hold message threads.', { error_code: 'thread_unsupported_request' }));
      }
      const shape = shapeProblem(request.body);
      if (shape) return send(400, errorBody('invalid_request_error', shape));
      const violations = checkRequest(request.body);
      if (violations.length > 0) {
        const message = violations.map((v) => (v.messageIndex >= 0 ? `messages.${v.messageIndex}: ${v.message}` : v.message)).join('\n');
        return send(400, errorBody('invalid_request_error', message));
      }
      const feature = featureProblem(request.body);
      if (feature) return send(400, errorBody('invalid_request_error', feature));
      const cached = cache?.usage(request.body);
      const scripted = turns[next];
      if (scripted === undefined) return fail(`request ${index} arrived after the script's ${turns.length} turns were used.`);
      next += 1;
      let outcome: ScriptedReply | ScriptedError;
      try {
        outcome = typeof scripted === 'function' ? await scripted(request) : scripted;
      } catch (error) {
        return fail(`turn ${next - 1} threw: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (isScriptedError(outcome)) {
        const retryAfterMs = outcome.retryAfterMs ?? 1;
        return send(outcome.status, errorBody(ERROR_TYPES[outcome.status] ?? 'api_error', outcome.message ?? `scripted ${outcome.status}`), {
          'retry-after-ms': String(retryAfterMs),
          'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))),
        });
      }
      const reply = cached ? { ...outcome, usage: { ...cached, ...outcome.usage } } : outcome;
      if (request.body.stream === true) {
        await stream(res, message(reply, request), outcome.stream ?? {}, index);
        return 200;
      }
      return send(200, message(reply, request));
    }
  };

  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      problems.push(`the server failed: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'x-should-retry': 'false' });
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get remaining() {
      return turns.length - next;
    },
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The SDK keeps connections alive; without this, close waits for them to time out.
        server.closeAllConnections();
      });
      if (problems.length > 0) throw new Error(`scripted server:\n- ${problems.join('\n- ')}`);
    },
  };
}

function message(reply: ScriptedReply, request: ScriptedRequest): Message {
  return {
    id: `msg_scripted_${request.index}`,
    type: 'message',
    role: 'assistant',
    model: request.body.model,
    content: reply.content,
    stop_reason: reply.stop_reason,
    stop_sequence: reply.stop_sequence ?? null,
    stop_details: null,
    container: reply.container ? { id: reply.container.id, expires_at: reply.container.expires_at ?? '2099-01-01T00:00:00Z', skills: null } : null,
    diagnostics: null,
    usage: {
      ...DEFAULT_USAGE,
      ...reply.usage,
      cache_creation: null,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: 'standard',
      speed: null,
    },
  };
}

/** Writes the reply as Server-Sent Events, with the script's delays, error or dropped connection. */
async function stream(res: ServerResponse, reply: Message, script: StreamScript, index: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_scripted_${index}` });
  const events = scriptedStreamEvents(reply, script);
  for (let position = 0; position < events.length; position++) {
    const event = events[position];
    const delay = typeof script.delayMs === 'function' ? script.delayMs(event, position) : (script.delayMs ?? 0);
    if (delay > 0) await pause(delay, res);
    // The client went away (an abort): nothing more to send.
    if (res.destroyed) return;
    if (position === script.dropAt) {
      res.destroy();
      return;
    }
    if (position === script.errorAt) {
      res.end(frame('error', errorBody(script.error?.type ?? 'overloaded_error', script.error?.message ?? 'Overloaded')));
      return;
    }
    res.write(frame(event.type, event));
  }
  res.end();
}

/** Waits `ms`, or less when the connection closes first, so a closed server leaves no timer behind. */
function pause(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once('close', done);
  });
}

function frame(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function errorBody(type: string, message: string, details?: Record<string, unknown>) {
  return { type: 'error', error: { type, message, ...(details && { details }) } };
}

/** What a request lacks to be a `messages.create` body at all, before the ordering rules. */
function shapeProblem(body: ScriptedRequestBody): string | undefined {
  if (typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  const malformed = (body.messages as unknown[]).findIndex((m) => !isMessage(m));
  if (malformed >= 0) return `messages.${malformed}: a message needs a role and a content string or list of typed blocks`;
  return undefined;
}

function isMessage(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { role, content } = value as { role?: unknown; content?: unknown };
  const isBlock = (b: unknown) => typeof b === 'object' && b !== null && typeof (b as { type?: unknown }).type === 'string';
  return typeof role === 'string' && (typeof content === 'string' || (Array.isArray(content) && content.every(isBlock)));
}

function parseObject(raw: string): ScriptedRequestBody | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ScriptedRequestBody) : undefined;
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
