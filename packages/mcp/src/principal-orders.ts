import { ArrivalOrder } from './arrival-order';

/**
 * One call order per principal, for the revision without sessions (2026-07-28): a principal's
 * writes run alone and in arrival order across its requests. An order with nothing pending is
 * dropped, so principals that come and go leave nothing behind.
 */
export class PrincipalOrders {
  private readonly orders = new Map<string, { order: ArrivalOrder; pending: number }>();

  constructor(private readonly maxConcurrency: number) {}

  admit<T>(principal: string, isWrite: boolean, work: () => Promise<T>): Promise<T> {
    let entry = this.orders.get(principal);
    if (!entry) this.orders.set(principal, (entry = { order: new ArrivalOrder(this.maxConcurrency), pending: 0 }));
    const held = entry;
    held.pending++;
    const done = held.order.admit(isWrite, work);
    const release = () => {
      if (--held.pending === 0 && this.orders.get(principal) === held) this.orders.delete(principal);
    };
    done.then(release, release);
    return done;
  }

  /** Principals with calls pending (for tests: a finished principal must leave nothing behind). */
  get size(): number {
    return this.orders.size;
  }
}
