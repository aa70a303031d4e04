/**
 * The order of one MCP session's calls over time: reads run together, each write alone, and
 * every call starts in arrival order relative to the writes around it. A read that arrives after
 * a write waits for that write; a write waits for everything that arrived before it, and holds
 * back everything that arrives after it until it is done. At most `maxConcurrency` reads run at
 * once; the others wait their turn in arrival order.
 */
export class ArrivalOrder {
  /** Settles when the last admitted write (and so everything before it) has finished. */
  private barrier: Promise<unknown> = Promise.resolve();
  /** Reads admitted since the last write and not yet finished: the next write waits for them. */
  private readonly readsSinceWrite = new Set<Promise<unknown>>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly maxConcurrency: number) {}

  /** Runs `work` when its turn comes; `work` must not reject (a call's answer is data, not an exception). */
  admit<T>(isWrite: boolean, work: () => Promise<T>): Promise<T> {
    if (isWrite) {
      const done = Promise.all([this.barrier, ...this.readsSinceWrite]).then(work);
      this.barrier = done;
      this.readsSinceWrite.clear();
      return done;
    }
    const done = this.barrier.then(() => this.inSlot(work));
    // A finished read holds nothing back; dropping it keeps a long read-only session from growing.
    this.readsSinceWrite.add(done);
    const forget = () => void this.readsSinceWrite.delete(done);
    done.then(forget, forget);
    return done;
  }

  private async inSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.maxConcurrency) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiting read, so none can jump the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
