import fc from 'fast-check';
import { patternCode } from '../../src/validation/pattern-code';
import { schemaCheck, standaloneCheck } from '../../src/validation/schema-check';
import { compiledCheckRuntime, CHECK_RUNTIME_NAME, type CompiledInputCheck } from '../../src/validation/compiled-check';

// A schema's `pattern` decides what the model may send: the code tools-codegen writes in place of
// a `RegExp` for the common shapes must give `RegExp`'s verdict on every string, and must refuse
// (leaving the `RegExp`) every pattern where one greedy pass could differ. The generators build patterns from
// every piece the subset has (literals, escapes, classes, ranges, every quantifier) and from the
// pieces it refuses, and strings from the pattern's own characters, the characters next to them,
// and what no set holds (NUL, controls, non-ASCII, lone and paired surrogates).

const LITERALS = 'aAzZ09_- ,:@#%&=<>!~\'"`';
const ESCAPED = '^$\\.*+?()[]{}|/';

const literal = fc.constantFrom(...LITERALS.split(''), '/');
const escapedSyntax = fc.constantFrom(...ESCAPED.split('').map((c) => `\\${c}`));
const classChar = fc.constantFrom(...'abcxyzABZ0189_-.+*?(){}|$^/ '.split('').filter((c) => c !== '-'));
const classPart = fc.oneof(
  classChar,
  fc.constantFrom('a-z', 'A-Z', '0-9', 'b-y', '!--', ' -/', '\\d', '\\w', '\\-', '\\]', '\\\\', '\\^', '\\['),
);
const charClass = fc
  .tuple(fc.boolean(), fc.array(classPart, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([leadingDash, parts, trailingDash]) => `[${leadingDash ? '-' : ''}${parts.join('')}${trailingDash ? '-' : ''}]`);
const atom = fc.oneof(literal, escapedSyntax, fc.constantFrom('\\d', '\\w'), charClass);
const quantifier = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?', '*', '+'),
  fc.nat({ max: 4 }).map((n) => `{${n}}`),
  fc.nat({ max: 3 }).map((n) => `{${n},}`),
  fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 3 })).map(([n, extra]) => `{${n},${n + extra}}`),
);
/** Patterns of the subset's grammar, which the greedy condition then accepts or refuses. */
const subsetPattern = fc.array(fc.tuple(atom, quantifier), { maxLength: 5 }).map((items) => `^${items.map(([a, q]) => a + q).join('')}$`);

/** Strings made mostly of characters a pattern names, so a good share of them match. */
function stringsFor(source: string): fc.Arbitrary<string> {
  const own = [...new Set(source.replace(/[\\^$[\]{}]/g, '').split(''))];
  const pieces = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(own.length > 0 ? own : ['a']), 'a', 'A', '0', '5', '9', '_', '-') },
    { weight: 1, arbitrary: fc.constantFrom('\u0000', '\n', '\u007f', 'é', '\u0660', '\ud83d', '\ude00', '\ud83d\ude00', '\u212a', 'ſ') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 2 }) },
  );
  return fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join(''));
}

/** The object the code of `patternCode` makes, as a compiled check holds it; `undefined` where it leaves a `RegExp`. */
function simplePattern(source: string, flags: string): { test(text: string): boolean } | undefined {
  const code = patternCode(source, flags);
  return code === undefined ? undefined : (new Function(`return ${code};`) as () => { test(text: string): boolean })();
}

describe('patternCode', () => {
  // Test names carry no regular expression syntax: Stryker selects a mutant's tests by name.
  it('gives the verdict of RegExp with the u flag on every string, for every pattern it takes', () => {
    let runs = 0;
    let taken = 0;
    fc.assert(
      fc.property(subsetPattern.chain((source) => fc.tuple(fc.constant(source), fc.array(stringsFor(source), { minLength: 1, maxLength: 30 }))), ([source, texts]) => {
        runs++;
        const simple = simplePattern(source, 'u');
        if (simple === undefined) return;
        taken++;
        const regExp = new RegExp(source, 'u');
        for (const text of texts) expect([source, text, simple.test(text)]).toEqual([source, text, regExp.test(text)]);
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the subset, not only what it refuses (half of the patterns or
    // more; mutation runs cap the number of runs).
    expect(taken).toBeGreaterThan(runs / 2);
  });

  it('takes no source RegExp would refuse, and agrees with it on any source it takes', () => {
    const anySource = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'^$\\[]{}()-?*+.|/,aZ09dwsbDpu'.split('')), maxLength: 12 }).map((s) => `^${s}$`),
      fc.string({ maxLength: 10 }),
    );
    fc.assert(
      fc.property(anySource, stringsFor('aZ09'), (source, text) => {
        const simple = simplePattern(source, 'u');
        if (simple === undefined) return;
        expect(simple.test(text)).toBe(new RegExp(source, 'u').test(text));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['an order number', '^A-\\d{4}$', ['A-1234'], ['A-123', 'A-12345', 'a-1234', 'A-\u0661\u0662\u0663\u0664', 'A-1234\n']],
    ['a kebab name', '^[a-z0-9-]+$', ['a-b-1', '-'], ['', 'A', 'a b']],
    ['two words and a dash', '^[a-z]+-[a-z]+$', ['ab-cd'], ['ab', 'ab-', '-cd', 'ab-cd-ef']],
    ['a word and a digit past an optional dash', '^[a-z]+-?\\d$', ['ab-1', 'ab1'], ['ab--1', '-1', 'ab']],
    ['a phone number', '^\\+?\\d{10,15}$', ['+5511999999999', '5511999999999'], ['+551199', '++5511999999999']],
    ['a country code and digits', '^[A-Z]{2}\\d*$', ['BR', 'BR123'], ['B', 'br1']],
    ['a postal code of eight digits', '^\\d{5}\\d{3}$', ['12345678'], ['1234567', '123456789']],
    ['two to nine digits', '^\\d{2,9}$', ['12', '123456789'], ['1', '1234567890']],
    ['word characters', '^\\w+$', ['az', 'AZ', '09', '_', 'aZ_9'], ['a-b', '\u00e9', ' ', '', '\u017f', '\u212a']],
    ['a price', '^\\d+\\.\\d{2}$', ['10.50', '0.99'], ['10,50', '1050', '.50', '10.5']],
    ['a date with slashes', '^\\d{2}/\\d{2}/\\d{4}$', ['04/12/2026'], ['4/12/2026', '04-12-2026']],
    ['a hexadecimal number', '^[\\dA-F]+$', ['AF09', '0'], ['G', 'af', '']],
    ['a signed integer', '^[\\-+]?\\d+$', ['-1', '+12', '3'], ['--1', '1-', '']],
    ['capitals and spaces', '^[A-Z ]+$', ['A B', ' '], ['a', '', 'A\tB']],
    ['the last printable characters', '^[}~]+$', ['~}', '~'], ['|', '\u007f']],
    ['the last printable character alone', '^[a~]+$', ['~', 'a~'], ['}', '\u007f']],
    ['a range of one character', '^[a-a]$', ['a'], ['b', '']],
    ['a maximum of nine digits', '^a{0,123456789}$', ['', 'aaa'], ['b']],
    ['a class ending with a dash', '^[a-]$', ['a', '-'], ['b', '', 'a-']],
    ['the empty string', '^$', [''], ['a']],
  ])('takes %s, which matches what it should and nothing else', (_what, source, matching, other) => {
    const simple = simplePattern(source, 'u')!;
    expect(simple).toBeDefined();
    const regExp = new RegExp(source, 'u');
    for (const text of matching) expect([text, simple.test(text), regExp.test(text)]).toEqual([text, true, true]);
    for (const text of other) expect([text, simple.test(text), regExp.test(text)]).toEqual([text, false, false]);
  });

  it.each([
    ['unanchored', 'A-\\d{4}'],
    ['no end anchor', '^abc'],
    ['no start anchor', 'abc$'],
    ['an anchor alone', '$'],
    ['alternation', '^(a|b)$'],
    ['any character', '^a.c$'],
    ['a negated class', '^[^a]$'],
    ['an empty class', '^a[]$'],
    ['a non-ASCII literal', '^\u00e9$'],
    ['a non-ASCII character in a class', '^[a\u00e9]$'],
    ['a control character', '^a\u0001$'],
    ['a NUL', '^a\u0000$'],
    ['a property escape', '^\\p{Lu}$'],
    ['the Unicode space class', '^\\s$'],
    ['a lazy quantifier', '^a+?$'],
    ['a lazy counted quantifier', '^a{2}?$'],
    ['an escaped final dollar sign', '^a\\$'],
    ['a varying item that shares characters with the next', '^\\d+\\d$'],
    ['a varying item that shares characters past an optional one', '^[a-z]*-?[a-c]$'],
    ['a range out of order', '^[z-a]$'],
    ['a quantifier out of order', '^a{3,1}$'],
    ['an unclosed quantifier', '^a{2$'],
    ['a quantifier without a minimum', '^a{,5}$'],
    ['a quantifier of ten digits', '^a{1234567890}$'],
    ['a maximum of ten digits', '^a{0,1234567890}$'],
    ['a caret alone', '^'],
    ['a control escape', '^\\n$'],
    ['a control escape in a class', '^[a\\t]$'],
    ['a backslash at the end of a class', '^[a\\$'],
    ['an identity escape u refuses', '^\\-$'],
    ['a range from a class escape', '^[\\d-z]$'],
    ['a dash after a range', '^[a-z-0]$'],
    ['flags other than u', '^a$', ''],
  ])('leaves %s to RegExp', (_what, source, flags = 'u') => {
    expect(patternCode(source, flags)).toBeUndefined();
  });
});

describe('compiled checks test simple patterns with the code of patternCode', () => {
  const schema = {
    type: 'object',
    properties: { code: { type: 'string', pattern: '^[A-Z]{2}-\\d{3}$' }, name: { type: 'string', pattern: '^\\p{Lu}' } },
    additionalProperties: false,
  };
  const inputs = fc.record(
    { code: fc.oneof(stringsFor('AZ-09'), fc.constantFrom('BR-123', 'br-123', 'BR-1234')), name: fc.oneof(fc.string(), fc.constantFrom('Émile', 'émile')) },
    { requiredKeys: [] },
  );

  it('at run time with a RegExp, in the checks tools-codegen compiles, and by RegExp decide alike', () => {
    const runTime = schemaCheck(schema);
    // The module tools-codegen writes binds the runtime object to CHECK_RUNTIME_NAME.
    const make = new Function(CHECK_RUNTIME_NAME, `return (${standaloneCheck(schema)})();`) as (runtime: typeof compiledCheckRuntime) => CompiledInputCheck;
    const compiled = make(compiledCheckRuntime);
    // The first pattern is written as code, the second (a property escape) stays a RegExp.
    expect(standaloneCheck(schema).match(/new RegExp\(/g)).toHaveLength(1);
    expect(standaloneCheck(schema)).toContain('{test(s){');
    fc.assert(
      fc.property(inputs, (input) => {
        const byRegExp = (input.code === undefined || /^[A-Z]{2}-\d{3}$/u.test(input.code)) && (input.name === undefined || /^\p{Lu}/u.test(input.name));
        expect(runTime(input)).toBe(byRegExp);
        expect(compiled(input)).toBe(byRegExp);
      }),
      { numRuns: 1000 },
    );
  });
});
