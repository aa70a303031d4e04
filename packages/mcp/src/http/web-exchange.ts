import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web `Request` for the SDK, from a Node request whose body was already read (or parsed by middleware). */
export function toWebRequest(req: IncomingMessage, url: URL, body: Buffer | string | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && body !== undefined;
  return new Request(url, { method, headers, signal, ...(hasBody && { body: typeof body === 'string' ? body : new Uint8Array(body), duplex: 'half' }) } as RequestInit);
}

/**
 * Writes a web `Response` to the Node response, streaming its body (SSE) until it ends or the
 * client goes away; then the body is cancelled, which ends the SDK's side of the stream. Never
 * rejects: a socket that breaks mid-write is only reported to `onError`.
 */
export async function sendResponse(res: ServerResponse, response: Response, onError: (error: unknown) => void): Promise<void> {
  if (res.headersSent || res.destroyed) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // Node sends headers with the first write, and the standalone GET stream may wait long for its
  // first event: a client awaiting the GET, or a proxy, would see nothing until then.
  if (res.req?.method === 'GET') res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.on('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // SSE frames must reach the client as they come, not when a buffer fills.
      if (!res.write(value)) await drainedOrClosed(res);
      if (res.destroyed) break;
    }
    res.end();
  } catch (error) {
    onError(error);
    res.destroy();
  } finally {
    res.off('close', stop);
  }
}

/**
 * Resolves when `res` can take more ('drain') or never will ('close'). Whichever fires, the other
 * listener is removed: a long SSE stream waits here once per event the socket could not take at
 * once, and a listener left behind each time would pile up for the life of the stream.
 */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  // Closed already: 'close' has been emitted and will not come again.
  if (res.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** A JSON-RPC error as a plain HTTP answer (before any SDK transport is involved). */
export function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
