/**
 * The order of one MCP session's calls over time: reads run together, each write alone, and
 * every call starts in arrival order relative to the writes around it. A read that arrives after
 * a write waits for that write; a write waits for everything that arrived before it, and holds
 * back everything that arrives after it until it is done.
 */
export class ArrivalOrder {
  /** Settles when the last admitted write (and so everything before it) has finished. */
  private barrier: Promise<unknown> = Promise.resolve();
  /** Reads admitted since the last write: the next write waits for them. */
  private readsSinceWrite: Promise<unknown>[] = [];

  /** Runs `work` when its turn comes; `work` must not reject (a call's answer is data, not an exception). */
  admit<T>(isWrite: boolean, work: () => Promise<T>): Promise<T> {
    if (isWrite) {
      const before = Promise.all([this.barrier, ...this.readsSinceWrite]);
      const done = before.then(work);
      this.barrier = done;
      this.readsSinceWrite = [];
      return done;
    }
    const done = this.barrier.then(work);
    this.readsSinceWrite.push(done);
    return done;
  }
}
