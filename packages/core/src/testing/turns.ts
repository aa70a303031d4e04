import type { ContentBlock, MessageParam, StopReason, ToolChoice, ToolUnion, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { StreamScript } from './stream-script';

/** One scripted assistant response. */
export interface ScriptedReply {
  content: ContentBlock[];
  stop_reason: StopReason;
  /** Default: 10 input and 10 output tokens. */
  usage?: Partial<Pick<Usage, 'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'>>;
  stop_sequence?: string | null;
  /** The code execution container the turn ran in (`container.id` of the message). */
  container?: { id: string; expires_at?: string };
  /** How it streams when the request has `stream: true` (delays, a mid-stream error, a dropped connection). */
  stream?: StreamScript;
}

/** One scripted failure: an HTTP status with the API's error body. */
export interface ScriptedError {
  status: number;
  message?: string;
  /**
   * Sent as `retry-after-ms` (and `retry-after`, in whole seconds), which the SDK obeys before
   * it retries. Default 1, so tests with retries stay fast.
   */
  retryAfterMs?: number;
}

/** What the server gets to answer with: the request it is answering, as sent. */
export interface ScriptedRequest {
  /** 0 for the first request the server received. */
  index: number;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: ScriptedRequestBody;
}

/** The parsed JSON body, as the client sent it; a request the server refused may not match it. */
export interface ScriptedRequestBody {
  model: string;
  max_tokens: number;
  messages: MessageParam[];
  tools?: ToolUnion[];
  tool_choice?: ToolChoice;
  [param: string]: unknown;
}

/** A turn of the script: a reply, an error, or a function of the request that returns one. */
export type ScriptedTurn =
  | ScriptedReply
  | ScriptedError
  | ((request: ScriptedRequest) => ScriptedReply | ScriptedError | Promise<ScriptedReply | ScriptedError>);

/** An assistant turn: `turn('tool_use', text('Vou consultar.'), toolUse('toolu_01', 'buscar_pedido', {...}))`. */
export function turn(stopReason: StopReason, ...content: ContentBlock[]): ScriptedReply {
  return { stop_reason: stopReason, content };
}

/** A failed request: 429 (rate limited), 500, 529 (overloaded), ... */
export function apiError(status: number, options: Omit<ScriptedError, 'status'> = {}): ScriptedError {
  return { status, ...options };
}

export function isScriptedError(turn: ScriptedReply | ScriptedError): turn is ScriptedError {
  return 'status' in turn;
}
