/**
 * A batch's cancellation, shared by its calls. One listener on the caller's `AbortSignal` per
 * batch, not one per call: a batch of many concurrent reads would otherwise trip Node's
 * max-listeners warning, and creating signals per call is a measurable share of dispatch cost.
 */
export class BatchCancellation {
  /** Made by the first listener: most batches end before any call needs one. */
  private listeners?: Set<() => void>;
  private cancelled = false;
  private reasonValue: unknown;

  get aborted(): boolean {
    return this.cancelled;
  }

  get reason(): unknown {
    return this.reasonValue;
  }

  /** Calls `listener` once when the batch is cancelled; returns the function that unsubscribes. */
  onCancel(listener: () => void): () => void {
    const listeners = (this.listeners ??= new Set());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reasonValue = reason;
    if (!this.listeners) return;
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }

  /** Follows `signal` until the returned function is called. */
  follow(signal: AbortSignal | undefined): () => void {
    if (!signal) return unfollowed;
    if (signal.aborted) {
      this.cancel(signal.reason);
      return unfollowed;
    }
    const onAbort = () => this.cancel(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  }
}

const unfollowed = () => undefined;

/**
 * A call's `ctx.signal`, created only when a tool reads it: most tools never do, and an
 * `AbortSignal` costs microseconds to create. Aborting before anyone looked still yields an
 * aborted signal on first access.
 */
export class LazyAbort {
  private controller?: AbortController;
  private abortedWith?: { reason: unknown };

  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  /** What it was aborted with; `undefined` until then. */
  get reason(): unknown {
    return this.abortedWith?.reason;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.abortedWith) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
  }
}
