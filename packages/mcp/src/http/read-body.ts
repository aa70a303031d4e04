import type { IncomingMessage } from 'node:http';

export type BodyRead = { kind: 'read'; body: Buffer } | { kind: 'too_large' } | { kind: 'gone'; error: Error };

/**
 * The request body, up to `limit` bytes, read from the socket. A declared `content-length` over
 * the limit is refused before a byte is read; a chunked body is cut off the moment it passes the
 * limit. A client that hangs up mid-body, or a stream error, resolves as `gone`: this never rejects.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: BodyRead) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Reading on would buffer what the limit is there to refuse; the answer is written, then the socket closed.
        req.pause();
        return finish({ kind: 'too_large' });
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'read', body: Buffer.concat(chunks) });
    const onError = (error: Error) => finish({ kind: 'gone', error });
    const onClose = () => finish({ kind: 'gone', error: new Error('the client closed the connection before the body ended') });
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
