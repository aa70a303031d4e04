import fc from 'fast-check';
import { JsonWriter } from '../../src/execution/json-writer';

// The writer stands in for JSON.stringify on every returned value: its text must be the engine's,
// character for character, whatever the value, on the first call of a shape and on every later one.

const KEYS = ['status', 'previsao', 'n', '0', 'já', 'a"b', '\u0000'];

/** A string of any UTF-16 units: quotes, backslashes, controls, lone surrogates, pairs. */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\ud800', '\udfff', 'ã', '😀', 'a') }),
  fc.string({ minLength: 60, maxLength: 80, unit: fc.constantFrom('a', 'é', '"', '\ud83d') }),
);

const primitive = fc.oneof(
  anyString,
  fc.double(),
  fc.constantFrom(-0, 0, NaN, Infinity, -Infinity, 1e21, 5e-324),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

/** What a tool may return in place of a primitive: JSON.stringify leaves some out or refuses them. */
const oddValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(() => 1),
  fc.constant(Symbol('s')),
  fc.constant(10n),
  fc.constant(new Date(0)),
  fc.constant([1, 'a']),
  fc.constant({ nested: 'x' }),
  fc.constant(Object.assign(Object.create(null) as object, { a: 1 })),
);

/** An object built with `keys` in that order: the same shape again and again. */
const shaped = (keys: readonly string[], value: fc.Arbitrary<unknown>) =>
  fc.tuple(...keys.map(() => value)).map((values) => Object.fromEntries(keys.map((key, i) => [key, values[i]])));

/** The writer's text, or what it threw, beside the engine's. */
function both(writer: JsonWriter, value: unknown): [unknown, unknown] {
  const run = (write: () => unknown) => {
    try {
      return write();
    } catch (error) {
      return { threw: (error as Error).constructor.name };
    }
  };
  return [run(() => writer.write(value)), run(() => JSON.stringify(value))];
}

describe('JsonWriter writes exactly what JSON.stringify writes', () => {
  it('for flat objects of a few shapes, each written many times, with any primitive values', () => {
    const shapes = fc.constantFrom<readonly string[]>(['status', 'previsao'], KEYS, ['n'], ['b', 'a'], KEYS.slice(2));
    fc.assert(
      fc.property(fc.array(shapes.chain((keys) => shaped(keys, primitive)), { minLength: 1, maxLength: 30 }), (values) => {
        const writer = new JsonWriter();
        for (const value of values) {
          const [ours, engine] = both(writer, value);
          expect(ours).toBe(engine);
        }
      }),
    );
  });

  it('for objects of a known shape holding something it does not write itself', () => {
    fc.assert(
      fc.property(shaped(['status', 'previsao'], fc.oneof(primitive, oddValue)), (value) => {
        const writer = new JsonWriter();
        writer.write({ status: 's', previsao: null });
        const [ours, engine] = both(writer, value);
        expect(ours).toEqual(engine);
      }),
    );
  });

  it('for any JSON value and anything else a tool might return', () => {
    const writer = new JsonWriter();
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything({ withBigInt: true, withBoxedValues: true, withDate: true, withNullPrototype: true })), (value) => {
        const [ours, engine] = both(writer, value);
        expect(ours).toEqual(engine);
      }),
    );
  });

  it('for strings that repeat at the same key, as the statuses of a tool do, those it escapes among them', () => {
    // Drawn from a few values, so each key sees a string again: one it wrote as it is, or one it escapes.
    const repeated = fc.constantFrom(
      ...['enviado', 'a"b', 'x\\y', '\n', '\u0000', '\ud800', '😀', 'já', ''],
      ...['a'.repeat(63), `${'a'.repeat(63)}"`, 'a'.repeat(80)],
    );
    fc.assert(
      fc.property(fc.array(shaped(['status', 'previsao'], fc.oneof(repeated, fc.constant(null))), { minLength: 2, maxLength: 40 }), (values) => {
        const writer = new JsonWriter();
        for (const value of values) expect(writer.write(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('escapes a string after writing another as it is at the same key, and again on the next call', () => {
    const writer = new JsonWriter();
    for (const status of ['enviado', 'a"b', 'a"b', 'enviado', '\u001f', 'enviado']) {
      const value = { status, previsao: status };
      expect(writer.write(value)).toBe(JSON.stringify(value));
    }
  });

  it.each<[string, () => unknown]>([
    ['a toJSON on the object', () => ({ status: 'x', toJSON: () => 'mine' })],
    ['a toJSON on its prototype', () => Object.assign(Object.create({ toJSON: () => 'proto' }) as object, { status: 'x' })],
    ['a class instance', () => Object.assign(new (class Order {})(), { status: 'x' })],
    ['a boxed string with keys of its own', () => Object.assign(new String('ab'), { status: 'x' })],
    ['a boxed number', () => Object.assign(new Number(5), { status: 'x' })],
    ['a getter', () => ({ status: 'x', get previsao() { return 'later'; } })],
    ['a non-enumerable key', () => Object.defineProperty({ status: 'x' }, 'hidden', { value: 1, enumerable: false })],
    ['a symbol key', () => ({ status: 'x', [Symbol('s')]: 1 })],
  ])('with %s, after the writer learnt the shape of its keys', (_, make) => {
    const writer = new JsonWriter();
    const value = make();
    writer.write({ ...(value as object) });
    writer.write(Object.fromEntries(Object.keys(value as object).map((key) => [key, 1])));
    expect(writer.write(value)).toBe(JSON.stringify(value));
  });

  it('with an object of no keys, or of the first keys of a shape, after the writer learnt that shape', () => {
    const writer = new JsonWriter();
    writer.write({ status: 's', previsao: 'p' });
    for (const value of [{}, { status: 's' }, { status: 's', previsao: 'p', extra: 1 }, { previsao: 'p', status: 's' }]) {
      expect(writer.write(value)).toBe(JSON.stringify(value));
    }
  });

  it('with an enumerable key added to Object.prototype, which JSON.stringify leaves out', () => {
    const writer = new JsonWriter();
    const value = { status: 's', previsao: 'p' };
    writer.write(value);
    Object.defineProperty(Object.prototype, 'polluted', { value: 'x', enumerable: true, configurable: true });
    try {
      expect(writer.write(value)).toBe('{"status":"s","previsao":"p"}');
    } finally {
      delete (Object.prototype as { polluted?: unknown }).polluted;
    }
  });

  it('keeps no more than a few shapes, and writes the others through the engine all the same', () => {
    const writer = new JsonWriter();
    for (let i = 0; i < 50; i++) {
      const value = { [`k${i}`]: i, v: 'x' };
      expect(writer.write(value)).toBe(JSON.stringify(value));
      expect(writer.write(value)).toBe(JSON.stringify(value));
    }
  });
});
