import fc from 'fast-check';
import { tsLiteral } from '../src/emit/ts-literal';
import { DATE_TYPE, plainJson } from '../src/schema/json-schema';

// Values the schema walk can hold: JSON, plus what JSON leaves out or rewrites.
const odd = fc.constantFrom(undefined, Number.NaN, Number.POSITIVE_INFINITY, -0, () => 1, Symbol('x'));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), odd, tie('array'), tie('object')),
  array: fc.array(tie('any'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constant('__proto__')), tie('any'), { maxKeys: 4 }),
})).any;

describe('plainJson', () => {
  it('gives back exactly what a JSON round trip gives back', () => {
    fc.assert(
      fc.property(fc.oneof(value.filter((v) => typeof v === 'object' && v !== null)), (v) => {
        expect(plainJson(v)).toStrictEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves the Date marker out and does not share members with the original', () => {
    const schema = { type: 'object', properties: { at: { type: 'string', [DATE_TYPE]: true } } };
    const copy = plainJson(schema);
    expect(Object.getOwnPropertySymbols(copy.properties.at)).toEqual([]);
    copy.properties.at.type = 'number';
    expect(schema.properties.at.type).toBe('string');
  });
});

describe('tsLiteral', () => {
  it('writes TypeScript that evaluates to the same JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        const json = JSON.parse(JSON.stringify(v));
        expect(new Function(`return ${tsLiteral(json)};`)()).toStrictEqual(json);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps a short object of primitives on one line and breaks a longer or nested one', () => {
    expect(tsLiteral({ type: 'string', minLength: 1 })).toBe("{ type: 'string', minLength: 1 }");
    expect(tsLiteral(['a', 'b'])).toBe("['a', 'b']");
    expect(tsLiteral({ items: { type: 'string' } })).toBe("{\n  items: { type: 'string' },\n}");
    const long = { description: 'x'.repeat(90), type: 'string' };
    expect(tsLiteral(long)).toBe(`{\n  description: '${'x'.repeat(90)}',\n  type: 'string',\n}`);
    // The limit counts the indent: 100 columns in all.
    const edge = { k: 'y'.repeat(90) };
    expect(tsLiteral(edge).includes('\n')).toBe(false);
    expect(tsLiteral(edge, '  ').includes('\n')).toBe(true);
  });

  it('writes a member with no JSON text as undefined instead of failing', () => {
    expect(tsLiteral([1, undefined])).toBe('[1, undefined]');
    expect(tsLiteral({ a: undefined })).toBe('{ a: undefined }');
  });
});
