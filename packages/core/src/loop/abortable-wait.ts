/**
 * Node's fetch can leave a response body's read pending forever when the request is aborted after
 * the body's last bytes arrived (nodejs/node#56917), and the SDK's stream and `messages.create`
 * wait on that read. So the loop never waits on the client alone: each wait also ends when the
 * run's signal aborts, and a read left pending is abandoned (it holds no handle, only memory
 * until it is collected).
 */
export const ABORTED: unique symbol = Symbol('aborted');

/**
 * Resolves `ABORTED` a macrotask after `signal` aborts, so that what is already at hand (events
 * the SDK holds decoded, a response already read) still wins a race against it; only a wait on
 * the network is cut short. One listener for as many waits as the caller races against it.
 */
class Abortion {
  readonly aborted: Promise<typeof ABORTED>;
  private onAbort!: () => void;

  constructor(private readonly signal: AbortSignal) {
    this.aborted = new Promise((resolve) => {
      this.onAbort = () => setImmediate(() => resolve(ABORTED));
      if (signal.aborted) this.onAbort();
      else signal.addEventListener('abort', this.onAbort, { once: true });
    });
  }

  race<T>(wait: PromiseLike<T>): Promise<T | typeof ABORTED> {
    return Promise.race([wait, this.aborted]);
  }

  release(): void {
    this.signal.removeEventListener('abort', this.onAbort);
  }
}

/** `wait`'s value, or `ABORTED` once `signal` has aborted and `wait` has not settled by the next macrotask. */
export async function untilAborted<T>(wait: PromiseLike<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  const abortion = new Abortion(signal);
  try {
    return await abortion.race(wait);
  } finally {
    abortion.release();
  }
}

/**
 * The items of `source` until it ends or `signal` aborts. A consumer that stops early returns the
 * source's iterator (the SDK aborts its request then); after an abort the pending read is left.
 */
export async function* iterateUntilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  const abortion = new Abortion(signal);
  let abandoned = false;
  try {
    for (;;) {
      const next = await abortion.race(iterator.next());
      if (next === ABORTED) {
        abandoned = true;
        return;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    abortion.release();
    // An async generator queues `return` behind a pending `next`: awaiting it would wait forever.
    if (abandoned) void Promise.resolve(iterator.return?.()).catch(() => undefined);
    else await iterator.return?.();
  }
}
