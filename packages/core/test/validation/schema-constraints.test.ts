import { Check, matchesSchema, toDate } from '@toolwright/core/generated';
import { validate } from 'class-validator';

const matches = (value: unknown, schema: Record<string, unknown>) => matchesSchema(value, schema, {});

describe('matchesSchema', () => {
  it('accepts anything against the empty schema', () => {
    for (const value of [null, 0, '', [], {}, true]) expect(matches(value, {})).toBe(true);
  });

  it('type: JSON types, a list of them, integers apart from numbers, no NaN or Infinity', () => {
    expect(matches('a', { type: 'string' })).toBe(true);
    expect(matches(1, { type: 'string' })).toBe(false);
    expect(matches(true, { type: 'boolean' })).toBe(true);
    expect(matches(null, { type: 'null' })).toBe(true);
    expect(matches(undefined, { type: 'null' })).toBe(false);
    expect(matches(1.5, { type: 'number' })).toBe(true);
    expect(matches(Number.NaN, { type: 'number' })).toBe(false);
    expect(matches(Number.POSITIVE_INFINITY, { type: 'number' })).toBe(false);
    expect(matches(2, { type: 'integer' })).toBe(true);
    expect(matches(2.5, { type: 'integer' })).toBe(false);
    expect(matches([], { type: 'array' })).toBe(true);
    expect(matches({}, { type: 'array' })).toBe(false);
    expect(matches({}, { type: 'object' })).toBe(true);
    expect(matches([], { type: 'object' })).toBe(false);
    expect(matches(null, { type: 'object' })).toBe(false);
    expect(matches(null, { type: ['string', 'null'] })).toBe(true);
    expect(matches(3, { type: ['string', 'null'] })).toBe(false);
  });

  it('enum and const compare with ===', () => {
    expect(matches('red', { enum: ['red', 'green'] })).toBe(true);
    expect(matches('blue', { enum: ['red', 'green'] })).toBe(false);
    expect(matches(null, { enum: ['red', null] })).toBe(true);
    expect(matches(3, { const: 3 })).toBe(true);
    expect(matches('3', { const: 3 })).toBe(false);
    expect(matches(undefined, { const: null })).toBe(false);
  });

  it('anyOf: at least one option', () => {
    const schema = { anyOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }] };
    expect(matches('a', schema)).toBe(true);
    expect(matches({ id: 1 }, schema)).toBe(true);
    expect(matches({ id: 'x' }, schema)).toBe(false);
    expect(matches(1, schema)).toBe(false);
  });

  it('minLength and maxLength count code points; pattern is a unicode regex', () => {
    expect(matches('ab', { minLength: 2 })).toBe(true);
    expect(matches('a', { minLength: 2 })).toBe(false);
    expect(matches('abc', { maxLength: 2 })).toBe(false);
    expect(matches('😀😀', { maxLength: 2 })).toBe(true);
    expect(matches('😀', { minLength: 2 })).toBe(false);
    expect(matches('A-1234', { pattern: '^A-\\d{4}$' })).toBe(true);
    expect(matches('A-12', { pattern: '^A-\\d{4}$' })).toBe(false);
    expect(matches('😀', { pattern: '^.$' })).toBe(true);
  });

  it('string keywords leave other types alone', () => {
    expect(matches(5, { minLength: 10, pattern: '^x$' })).toBe(true);
  });

  it('minimum and maximum are inclusive, exclusiveMinimum and exclusiveMaximum are not', () => {
    expect(matches(1, { minimum: 1 })).toBe(true);
    expect(matches(0.5, { minimum: 1 })).toBe(false);
    expect(matches(10, { maximum: 10 })).toBe(true);
    expect(matches(11, { maximum: 10 })).toBe(false);
    expect(matches(0, { exclusiveMinimum: 0 })).toBe(false);
    expect(matches(0.1, { exclusiveMinimum: 0 })).toBe(true);
    expect(matches(10, { exclusiveMaximum: 10 })).toBe(false);
    expect(matches(9.9, { exclusiveMaximum: 10 })).toBe(true);
  });

  it('multipleOf, on integers and on fractions', () => {
    expect(matches(15, { multipleOf: 5 })).toBe(true);
    expect(matches(16, { multipleOf: 5 })).toBe(false);
    expect(matches(1.5, { multipleOf: 0.5 })).toBe(true);
    expect(matches(1.25, { multipleOf: 0.5 })).toBe(false);
  });

  it('number keywords leave other types alone', () => {
    expect(matches('5', { minimum: 10, multipleOf: 3 })).toBe(true);
  });

  it('minItems, maxItems and uniqueItems (by JSON value, so objects compare by content)', () => {
    expect(matches([1], { minItems: 1 })).toBe(true);
    expect(matches([], { minItems: 1 })).toBe(false);
    expect(matches([1, 2, 3], { maxItems: 2 })).toBe(false);
    expect(matches([1, 2], { uniqueItems: true })).toBe(true);
    expect(matches([1, 1], { uniqueItems: true })).toBe(false);
    expect(matches([{ a: 1 }, { a: 1 }], { uniqueItems: true })).toBe(false);
    expect(matches([{ a: 1 }, { a: 2 }], { uniqueItems: true })).toBe(true);
  });

  it('items checks every item', () => {
    expect(matches(['a', 'b'], { items: { type: 'string' } })).toBe(true);
    expect(matches(['a', 2], { items: { type: 'string' } })).toBe(false);
  });

  it('prefixItems with items: false is a tuple; shorter arrays are left to minItems', () => {
    const tuple = { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }], items: false };
    expect(matches([1, 'a'], tuple)).toBe(true);
    expect(matches(['a', 1], tuple)).toBe(false);
    expect(matches([1, 'a', 'extra'], tuple)).toBe(false);
    expect(matches([1], tuple)).toBe(true);
    expect(matches([1], { ...tuple, minItems: 2 })).toBe(false);
  });

  it('prefixItems with an items schema checks the rest against it', () => {
    const schema = { prefixItems: [{ type: 'string' }], items: { type: 'number' } };
    expect(matches(['a', 1, 2], schema)).toBe(true);
    expect(matches(['a', 1, 'b'], schema)).toBe(false);
  });

  it('required counts an undefined property as missing', () => {
    const schema = { type: 'object', required: ['id'] };
    expect(matches({ id: 0 }, schema)).toBe(true);
    expect(matches({ id: null }, schema)).toBe(true);
    expect(matches({}, schema)).toBe(false);
    expect(matches({ id: undefined }, schema)).toBe(false);
  });

  it('properties check only the keys present', () => {
    const schema = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    expect(matches({ id: 1 }, schema)).toBe(true);
    expect(matches({ id: 1, name: 2 }, schema)).toBe(false);
  });

  it('additionalProperties: false refuses unknown keys, a schema checks them (records)', () => {
    const closed = { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: false };
    expect(matches({ id: 1 }, closed)).toBe(true);
    expect(matches({ id: 1, extra: true }, closed)).toBe(false);
    const record = { type: 'object', additionalProperties: { type: 'number' } };
    expect(matches({ a: 1, b: 2 }, record)).toBe(true);
    expect(matches({ a: 1, b: 'two' }, record)).toBe(false);
    expect(matches({ anything: 'goes' }, { type: 'object' })).toBe(true);
  });

  it('object keywords leave arrays alone', () => {
    expect(matches([1], { required: ['id'], additionalProperties: false })).toBe(true);
  });

  it('follows $ref into the root $defs, recursively', () => {
    const root = {
      $defs: {
        Category: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Category' } } },
          required: ['name', 'children'],
          additionalProperties: false,
        },
      },
    };
    const ref = { $ref: '#/$defs/Category' };
    const leaf = (name: unknown) => ({ name, children: [] });
    expect(matchesSchema({ name: 'root', children: [{ name: 'a', children: [leaf('a1')] }, leaf('b')] }, ref, root)).toBe(true);
    expect(matchesSchema({ name: 'root', children: [{ name: 'a', children: [leaf(7)] }] }, ref, root)).toBe(false);
    expect(matchesSchema({ name: 'root', children: [{ name: 'a' }] }, ref, root)).toBe(false);
  });
});

describe('toDate', () => {
  it('turns strict ISO 8601 text into a Date', () => {
    const date = toDate('2024-05-06T07:08:09Z');
    expect(date).toBeInstanceOf(Date);
    expect((date as Date).toISOString()).toBe('2024-05-06T07:08:09.000Z');
    expect(toDate('2024-05-06')).toEqual(new Date('2024-05-06'));
  });

  it('leaves anything else as it is, for @IsDate() to refuse', () => {
    expect(toDate('2024-02-30')).toBe('2024-02-30');
    expect(toDate('yesterday')).toBe('yesterday');
    expect(toDate(1714979289000)).toBe(1714979289000);
    expect(toDate(null)).toBeNull();
    const existing = new Date(0);
    expect(toDate(existing)).toBe(existing);
  });
});

describe('Check', () => {
  class Reading {
    @Check('exclusiveMinimum', 'must be greater than 0', (value) => typeof value === 'number' && value > 0)
    level!: unknown;

    @Check('multipleOf', 'must be a multiple of 0.5', (value) => typeof value === 'number' && value % 0.5 === 0, { each: true })
    steps!: unknown;
  }

  const reading = (level: unknown, steps: unknown) => Object.assign(new Reading(), { level, steps });

  it('passes when the test does', async () => {
    expect(await validate(reading(1, [0.5, 1]))).toEqual([]);
  });

  it('fails with a class-validator error named after the constraint, in its message style', async () => {
    const [error, ...rest] = await validate(reading(0, [0.5]));
    expect(rest).toEqual([]);
    expect(error.property).toBe('level');
    expect(error.constraints).toEqual({ exclusiveMinimum: 'level must be greater than 0' });
  });

  it('with { each: true } tests every item and says so in the message', async () => {
    const [error] = await validate(reading(1, [0.5, 0.7]));
    expect(error.property).toBe('steps');
    expect(error.constraints).toEqual({ multipleOf: 'each value in steps must be a multiple of 0.5' });
  });
});
