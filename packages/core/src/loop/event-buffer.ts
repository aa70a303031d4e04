/**
 * An unbounded queue between the engine and one reader: pushing never waits, so a slow reader
 * (or none) cannot hold a tool back; a reader that stops early just stops the buffering.
 */
export class EventBuffer<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting?: (result: IteratorResult<T>) => void;
  private ended = false;
  private detached = false;
  private taken = false;

  push(item: T): void {
    if (this.ended || this.detached) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: item, done: false });
    } else {
      this.items.push(item);
    }
  }

  end(): void {
    this.ended = true;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.taken) throw new TypeError('streamToolLoop: the events can be read once; read them in one loop.');
    this.taken = true;
    return {
      next: () => {
        if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
        if (this.ended || this.detached) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        this.detached = true;
        this.items.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
