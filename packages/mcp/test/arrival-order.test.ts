import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ArrivalOrder } from '../src/arrival-order';

// A session that only reads may live for hours: what its finished reads returned must not stay
// reachable from the session's ordering, or its memory grows with every call.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

test('a finished read is not kept: what it returned can be collected while the session lives on', async () => {
  const order = new ArrivalOrder(4);
  const results: Array<WeakRef<object>> = [];
  for (let i = 0; i < 50; i++) {
    await order.admit(false, async () => {
      const result = { payload: new Array(1_000).fill(i) };
      results.push(new WeakRef(result));
      return result;
    });
  }
  await settle();
  gc();
  await settle();
  gc();
  expect(results.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  // The session still orders calls after the collection.
  await expect(order.admit(true, async () => 'written')).resolves.toBe('written');
});
