import fc from 'fast-check';
import { checkFlatInput, checkPlainInput, DEFAULT_INPUT_LIMITS, type InputLimits } from '../../src/validation/plain-input';
import { Probe, probeContainer, use } from './probe';

// Limits are checked before any parsing work, in one pass, each refusal one line.

const tight: InputLimits = { maxInputBytes: 48, maxKeys: 4, maxDepth: 3, maxArrayLength: 3, maxStringLength: 5 };
const check = (input: unknown, limits: Partial<InputLimits> = {}) => checkPlainInput(input, { ...DEFAULT_INPUT_LIMITS, ...limits });

/** A tree `levels` deep, each level an object holding an array of children: two JSON levels per tree level. */
function tree(levels: number): unknown {
  return levels === 1 ? { name: 'leaf', children: [] } : { name: `level ${levels}`, children: [tree(levels - 1)] };
}

describe('each limit: at the limit passes, one past it is refused in one line', () => {
  it.each<[string, unknown, unknown, string]>([
    ['maxKeys', { a: 1, b: { c: 1, d: 1 } }, { a: 1, b: { c: 1, d: 1, e: 1 } }, 'Invalid input: more than 4 keys in all; send fewer fields.'],
    ['maxDepth', { a: { b: { c: 1 } }, d: [[]] }, { a: { b: { c: {} } } }, 'Invalid input: nested deeper than 3 levels.'],
    ['maxArrayLength', { list: [1, 2, 3] }, { list: [1, 2, 3, 4] }, 'Invalid input: "list" has more than 3 elements.'],
    ['maxStringLength', { s: 'abcde' }, { a: [{ s: 'abcdef' }] }, 'Invalid input: "a[0].s" is longer than 5 characters.'],
    ['maxStringLength, for keys', { abcde: 1 }, { abcdef: 1 }, 'Invalid input: "abcdef" is longer than 5 characters.'],
    ['maxInputBytes', { s: 'abcde', t: 'abcde', u: 'abcde', v: 'abcd' }, { s: 'abcde', t: 'abcde', u: 'abcde', v: 'abcde' }, 'Invalid input: larger than 48 bytes of JSON; send less data.'],
  ])('%s', (_, under, over, message) => {
    // The byte count is exact for plain ASCII JSON like this.
    expect(JSON.stringify({ s: 'abcde', t: 'abcde', u: 'abcde', v: 'abcde' }).length).toBe(49);
    expect(checkPlainInput(under, tight)).toBeUndefined();
    expect(checkPlainInput(over, tight)).toBe(message);
  });

  it('bytes are counted as the JSON the model sent, in UTF-8', () => {
    const input = { s: 'é'.repeat(10) };
    expect(JSON.stringify(input).length).toBe(18);
    expect(Buffer.byteLength(JSON.stringify(input))).toBe(28);
    expect(check(input, { maxInputBytes: 28 })).toBeUndefined();
    expect(check(input, { maxInputBytes: 27 })).toBe('Invalid input: larger than 27 bytes of JSON; send less data.');
  });

  it('each kind of JSON value is counted exactly: at its byte count an input passes, one byte less it is refused', () => {
    const inputs = [
      // Flat, every character three bytes of UTF-8: here the quick count of flat inputs is exact too.
      { '€': false, '₤': true, '€₤': '€€' },
      { '€': false },
      { '€€€': '€' },
      { a: null, b: [true, false, null, 1.5, -20], c: {}, d: [[], {}] },
      { '€': [false, '€'], '₤': { '€': true } },
      { a: 12.5, b: -0.001, c: 1e21 },
      // One long number: the quick count's bound (32 characters a number) must stay above it.
      { a: 123456789.125 },
      // The longest a number is written (25 characters), nested, beside three-byte characters
      // only, so the walk's bound would pass the input over the limit were it below 25.
      { '€': [-0.0000012345678901234567, '€'] },
      {},
    ];
    for (const input of inputs) {
      const bytes = Buffer.byteLength(JSON.stringify(input));
      expect(check(input, { maxInputBytes: bytes })).toBeUndefined();
      expect(check(input, { maxInputBytes: bytes - 1 })).toBe(`Invalid input: larger than ${bytes - 1} bytes of JSON; send less data.`);
    }
  });

  it('a refused element of an array is the verdict, whatever follows it', () => {
    expect(check({ list: ['abcdef', 'a'] }, { maxStringLength: 5 })).toBe('Invalid input: "list[0]" is longer than 5 characters.');
  });

  it('an input that is not an object is refused, saying what it is', () => {
    for (const [input, what] of [[null, 'null'], [[1], 'an array'], ['{"a":1}', 'string'], [7, 'number']] as const) {
      expect(check(input)).toBe(`Invalid input: expected a JSON object, got ${what}.`);
    }
  });

  it('a flat input of more keys than the limit is refused', () => {
    expect(check({ a: 1, b: 'x', c: true, d: 2, e: 3 }, { maxKeys: 4 })).toBe('Invalid input: more than 4 keys in all; send fewer fields.');
  });

  it('an array over the limit is refused before any element is read', () => {
    let reads = 0;
    const huge = new Proxy(new Array(1_000_000).fill(0), {
      get(target, key, receiver) {
        if (key !== 'length') reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    expect(check({ list: huge })).toBe('Invalid input: "list" has more than 20,000 elements.');
    expect(reads).toBe(0);
  });

  it('a path that is itself huge is not echoed whole', () => {
    const key = 'k'.repeat(100_000);
    const message = check({ [key]: [1, 2, 3, 4] }, { maxArrayLength: 3, maxStringLength: 200_000 })!;
    expect(message).toBe(`Invalid input: "${'k'.repeat(64)}…(100000 chars)" has more than 3 elements.`);
  });

  it('values JSON cannot hold are refused by path', () => {
    expect(check({ a: [1, () => 1] })).toBe('Invalid input: "a[1]" is a function, not a JSON value.');
    expect(check({ n: 10n })).toBe('Invalid input: "n" is a bigint, not a JSON value.');
  });
});

// The common input, an object of strings, numbers and booleans, is judged without the walk's
// frames (the fast path of every call); the walk takes what it leaves, with the same verdict.
describe('a flat input at each limit is decided by the flat path itself', () => {
  const loose: InputLimits = { maxInputBytes: 1_000, maxKeys: 100, maxDepth: 3, maxArrayLength: 3, maxStringLength: 100 };
  it.each<[string, Record<string, unknown>, Partial<InputLimits>]>([
    ['as many keys as maxKeys', { a: 1, b: true }, { maxKeys: 2 }],
    ['a key as long as maxStringLength', { abc: true }, { maxStringLength: 3 }],
    ['a string as long as maxStringLength', { a: 'abc' }, { maxStringLength: 3 }],
    ['a number', { a: -1.5e-7 }, {}],
    ['a boolean', { a: false }, {}],
    ['an undefined value', { a: undefined }, {}],
    // Its bound: 2 braces, no commas, 3 bytes per unit of the key, 3 for its quotes and colon, 3 per unit of the string and its quotes.
    ['an upper bound of its bytes equal to maxInputBytes', { a: 'xy' }, { maxInputBytes: 2 + 3 + 3 + 6 + 2 }],
  ])('%s', (_what, input, limits) => {
    expect(checkFlatInput(input, { ...loose, ...limits })).toBeUndefined();
    expect(checkPlainInput(input, { ...loose, ...limits })).toBeUndefined();
  });
});

describe('the defaults are beyond what a real app sends', () => {
  it('a 17-level tree of objects in arrays (35 levels of JSON) passes', () => {
    expect(check(tree(17))).toBeUndefined();
  });

  it('a 33-level tree (67 levels of JSON) is refused', () => {
    expect(check(tree(33))).toBe('Invalid input: nested deeper than 64 levels.');
  });

  it('are what the README says', () => {
    expect(DEFAULT_INPUT_LIMITS).toEqual({ maxInputBytes: 2_000_000, maxKeys: 20_000, maxDepth: 64, maxArrayLength: 20_000, maxStringLength: 1_000_000 });
  });
});

describe('keys', () => {
  it('constructor and prototype are ordinary keys of JSON data', () => {
    expect(check(JSON.parse('{"labels":{"constructor":"x","prototype":{"constructor":1}}}'))).toBeUndefined();
  });

  it.each([
    ['{"__proto__":{"polluted":1}}', '__proto__'],
    ['{"a":1,"__proto__":"polluted"}', '__proto__'],
    ['{"a":[{"b":{"__proto__":{"polluted":1}}}]}', 'a[0].b.__proto__'],
  ])('__proto__ is refused wherever it is: %s', (json, path) => {
    expect(check(JSON.parse(json))).toBe(`Invalid input: key "${path}" is not allowed.`);
  });

  // A refusal names one field: a key that is empty, or holds a dot or a space, is quoted.
  it.each([
    [{ '': 'abcdef' }, "['']"],
    [{ 'a.b': 'abcdef' }, "['a.b']"],
    [{ a: { "b'c": 'abcdef' } }, "a['b\\'c']"],
    [{ não: ['abcdef'] }, 'não[0]'],
  ])('the path of a refused value names its field: %j', (input, path) => {
    expect(check(input, { maxStringLength: 5 })).toBe(`Invalid input: "${path}" is longer than 5 characters.`);
  });

  // A key is a string too: refused by its length in a flat input as in a nested one.
  it.each([
    [{ abcdef: 1 }, 'abcdef'],
    [{ a: 'x', abcdef: true }, 'abcdef'],
    [{ a: { abcdef: 1 } }, 'a.abcdef'],
  ])('a key longer than maxStringLength is refused by name: %j', (input, path) => {
    expect(check(input, { maxStringLength: 5 })).toBe(`Invalid input: "${path}" is longer than 5 characters.`);
  });
});

describe('the container option `limits`', () => {
  it('applies to every call, before validation: the method never runs', async () => {
    const probe = new Probe();
    const container = probeContainer(probe, { limits: { maxStringLength: 3 } });
    const [refused, passed] = await container.execute([use('a', 'probe_read', { key: 'abcd' }), use('b', 'probe_read', { key: 'abc' })], { auth: probe });
    expect(refused).toEqual({ type: 'tool_result', tool_use_id: 'a', is_error: true, content: 'Invalid input: "key" is longer than 3 characters.' });
    expect(passed.content).toBe('done');
    expect(probe.ran.map((r) => r.id)).toEqual(['b']);
  });

  it('a 17-level tree reaches validation with the default limits', async () => {
    const probe = new Probe();
    const [result] = await probeContainer(probe).execute([use('a', 'probe_read', { key: 'k', tree: tree(17) })], { auth: probe });
    // Refused by validation (the tool takes no `tree`), not by the depth limit.
    expect(result.content).toMatch(/^Invalid input for probe_read:\n- tree: /);
  });

  it.each(['maxInputBytes', 'maxKeys', 'maxDepth', 'maxArrayLength', 'maxStringLength'])('%s must be a positive integer', (key) => {
    expect(() => probeContainer(new Probe(), { limits: { [key]: 0 } })).toThrow(new RangeError(`ToolContainer: limits.${key} must be a positive integer, got 0.`));
  });
});

describe('the limits against a reference model (property, 1,000 inputs)', () => {
  // Characters JSON does not escape, so the model's byte count is exactly the JSON's; one of each
  // UTF-8 length, and '€' the one whose bytes per UTF-16 unit reach the walk's upper bound (3).
  const text = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '€', '😀', ' '), maxLength: 8 });
  const { object } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 5 }),
    object: fc.dictionary(text, tie('value'), { maxKeys: 5 }),
  }));
  const limits = fc.record({
    maxInputBytes: fc.integer({ min: 1, max: 200 }),
    maxKeys: fc.integer({ min: 1, max: 20 }),
    maxDepth: fc.integer({ min: 1, max: 6 }),
    maxArrayLength: fc.integer({ min: 1, max: 5 }),
    maxStringLength: fc.integer({ min: 1, max: 8 }),
  });

  /** Everything measured the slow, obvious way. */
  function measure(value: unknown): { keys: number; depth: number; array: number; string: number } {
    if (typeof value === 'string') return { keys: 0, depth: 0, array: 0, string: value.length };
    if (typeof value !== 'object' || value === null) return { keys: 0, depth: 0, array: 0, string: 0 };
    const entries = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value);
    const own = {
      keys: Array.isArray(value) ? 0 : entries.length,
      depth: 1,
      array: Array.isArray(value) ? value.length : 0,
      string: Math.max(0, ...entries.map(([k]) => k.length)),
    };
    for (const [, child] of entries) {
      const m = measure(child);
      own.keys += m.keys;
      own.depth = Math.max(own.depth, m.depth + 1);
      own.array = Math.max(own.array, m.array);
      own.string = Math.max(own.string, m.string);
    }
    return own;
  }

  it('a nested input passes at exactly its byte count and is refused one byte under it', () => {
    // Each string of one character, so that some inputs are all three-byte characters: there the
    // walk's quick count (3 bytes a UTF-16 unit) is tight, and one that counted less would pass
    // an input over the limit. Nested, so the walk decides and not the flat check; every other
    // limit far away.
    const uniform = fc.constantFrom('a', 'é', '€', '😀').chain((unit) => fc.string({ unit: fc.constant(unit), minLength: 1, maxLength: 4 }));
    const { nested } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, uniform, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), tie('nested')),
      nested: fc.oneof(fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(uniform, tie('value'), { maxKeys: 3 })),
    }));
    const loose = { maxKeys: 1_000_000, maxDepth: 100, maxArrayLength: 1_000_000, maxStringLength: 1_000_000 };
    fc.assert(
      fc.property(uniform, nested, (key, inner) => {
        const input = { [key]: inner };
        const bytes = Buffer.byteLength(JSON.stringify(input));
        expect(checkPlainInput(input, { ...loose, maxInputBytes: bytes })).toBeUndefined();
        expect(checkPlainInput(input, { ...loose, maxInputBytes: bytes - 1 })).toBe(`Invalid input: larger than ${bytes - 1} bytes of JSON; send less data.`);
      }),
      { numRuns: 300 },
    );
  });

  it('an input is refused exactly when it breaks a limit, and the message names a limit it breaks', () => {
    fc.assert(
      fc.property(object, limits, (input, l) => {
        const m = measure(input);
        const broken = new Set<string>();
        if (Buffer.byteLength(JSON.stringify(input)) > l.maxInputBytes) broken.add('bytes');
        if (m.keys > l.maxKeys) broken.add('keys');
        if (m.depth > l.maxDepth) broken.add('depth');
        if (m.array > l.maxArrayLength) broken.add('array');
        if (m.string > l.maxStringLength) broken.add('string');
        const message = checkPlainInput(input, l);
        if (broken.size === 0) {
          expect(message).toBeUndefined();
          return;
        }
        const kind = /bytes of JSON/.test(message ?? '')
          ? 'bytes'
          : /keys in all/.test(message ?? '')
            ? 'keys'
            : /nested deeper/.test(message ?? '')
              ? 'depth'
              : /elements\.$/.test(message ?? '')
                ? 'array'
                : /longer than/.test(message ?? '')
                  ? 'string'
                  : message;
        expect([...broken]).toContain(kind);
        expect(message).not.toContain('\n');
      }),
      { numRuns: 1000 },
    );
  });
});
