/**
 * The order of one MCP session's calls over time: reads run together, each write alone, and
 * every call starts in arrival order relative to the writes around it. A read that arrives after
 * a write waits for that write; a write waits for everything that arrived before it, and holds
 * back everything that arrives after it until it is done. At most `maxConcurrency` reads run at
 * once; the others wait their turn in arrival order.
 *
 * Kept as counters and one queue of calls not yet started, rather than a chain of promises: a
 * call that finds nothing ahead of it (the usual case, one call at a time) starts at once, with
 * no promise or microtask of the order's own, and a finished call leaves nothing behind.
 */
export class ArrivalOrder {
  private readsRunning = 0;
  private writing = false;
  /** Calls that arrived while something ahead of them held them back, in arrival order. */
  private readonly waiting: Array<{ isWrite: boolean; start: () => void }> = [];

  constructor(private readonly maxConcurrency: number) {}

  /** Runs `work` when its turn comes; `work` must not reject (a call's answer is data, not an exception). */
  admit<T>(isWrite: boolean, work: () => Promise<T>): Promise<T> {
    if (this.waiting.length === 0 && this.mayStart(isWrite)) return this.run(isWrite, work);
    return new Promise<T>((resolve) => this.waiting.push({ isWrite, start: () => resolve(this.run(isWrite, work)) }));
  }

  private mayStart(isWrite: boolean): boolean {
    if (this.writing) return false;
    return isWrite ? this.readsRunning === 0 : this.readsRunning < this.maxConcurrency;
  }

  private run<T>(isWrite: boolean, work: () => Promise<T>): Promise<T> {
    if (isWrite) this.writing = true;
    else this.readsRunning++;
    const done = work();
    const finished = () => this.finish(isWrite);
    done.then(finished, finished);
    return done;
  }

  private finish(isWrite: boolean): void {
    if (isWrite) this.writing = false;
    else this.readsRunning--;
    // The freed turn passes to the calls at the head of the queue, so none can jump it.
    while (this.waiting.length > 0 && this.mayStart(this.waiting[0].isWrite)) {
      // Starting counts it at once, before the next in line is judged.
      this.waiting.shift()!.start();
    }
  }
}
