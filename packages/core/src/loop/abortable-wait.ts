/**
 * Node's fetch can leave a response body's read pending forever when the request is aborted after
 * the body's last bytes arrived (nodejs/node#56917), and the SDK's stream and `messages.create`
 * wait on that read. So the loop never waits on the client alone: each wait also ends when the
 * run's signal aborts, and a read left pending is abandoned (it holds no handle, only memory
 * until it is collected).
 */
export const ABORTED: unique symbol = Symbol('aborted');

/**
 * `wait`'s value, or `ABORTED` once `signal` has aborted and `wait` has not settled by the next
 * macrotask. What is already at hand (events the SDK holds decoded, a response already read)
 * still arrives after an abort, as the SDK delivers it; only a wait on the network is cut short.
 */
export async function untilAborted<T>(wait: PromiseLike<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  const settled = Promise.resolve(wait);
  let onAbort!: () => void;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => setImmediate(() => resolve(ABORTED));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([settled, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The items of `source` until it ends or `signal` aborts. A consumer that stops early returns the
 * source's iterator (the SDK aborts its request then); after an abort the pending read is left.
 */
export async function* iterateUntilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  let abandoned = false;
  try {
    for (;;) {
      const next = await untilAborted(iterator.next(), signal);
      if (next === ABORTED) {
        abandoned = true;
        return;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // An async generator queues `return` behind a pending `next`: awaiting it would wait forever.
    if (abandoned) void Promise.resolve(iterator.return?.()).catch(() => undefined);
    else await iterator.return?.();
  }
}
