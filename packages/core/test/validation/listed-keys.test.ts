import 'reflect-metadata';
import fc from 'fast-check';
import type { Tool as ToolDefinition } from '@anthropic-ai/sdk/resources/messages';
import { CHECK_RUNTIME_NAME, standaloneCheck } from '@toolwright/core/tooling';
import { Param, Tool, ToolContainer, compiledCheckRuntime, defineToolManifest, type CompiledInputCheck } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';
import { buildInput, type InputContract } from '../../src/validation/validate-input';
import { DEFAULT_INPUT_LIMITS, checkPlainInput } from '../../src/validation/plain-input';
import { schemaCheck } from '../../src/validation/schema-check';
import { LISTED_KEYS_MIN, forgetListedKeys, keysOf } from '../../src/validation/listed-keys';

// The limits walk lists a large object's keys, and the schema check's loop over a Record takes
// that list instead of listing the Record again (a sort of every key in V8, the most a large
// input costs). The check must still visit exactly what `for…in` visits, and no list may
// outlive the input it was made for.

const SCHEMA: ToolDefinition.InputSchema = {
  type: 'object',
  properties: { scores: { type: 'object', additionalProperties: { type: 'number', minimum: 0 } } },
  required: ['scores'],
  additionalProperties: false,
};

/**
 * The same input under a recursive schema: a score is a number or a Record of scores. Ajv checks
 * a recursive `$ref` with a function of its own, which the loop over the Record calls with each
 * value: the other way it writes such a loop.
 */
const RECURSIVE_SCHEMA: ToolDefinition.InputSchema = {
  type: 'object',
  properties: { scores: { type: 'object', additionalProperties: { $ref: '#/$defs/Score' } } },
  required: ['scores'],
  additionalProperties: false,
  $defs: { Score: { anyOf: [{ type: 'number', minimum: 0 }, { type: 'object', additionalProperties: { $ref: '#/$defs/Score' } }] } },
};

/** The check `standaloneCheck` writes, made as the generated checks module makes it. */
function compiledCheck(schema: ToolDefinition.InputSchema): CompiledInputCheck {
  const make = new Function(CHECK_RUNTIME_NAME, `return (${standaloneCheck(schema)})();`);
  return make(compiledCheckRuntime) as CompiledInputCheck;
}

const CHECKS: Array<[string, () => CompiledInputCheck]> = [
  ['the check Ajv compiles at run time', () => schemaCheck(SCHEMA)],
  ['the check compiled at build time', () => compiledCheck(SCHEMA)],
  ['the check Ajv compiles at run time, recursive', () => schemaCheck(RECURSIVE_SCHEMA)],
  ['the check compiled at build time, recursive', () => compiledCheck(RECURSIVE_SCHEMA)],
];

class ScoresInput {
  scores!: Record<string, number>;
}

/** A read that does not look at its Record's keys: every listing counted is the framework's. */
class Scores {
  @Tool({ name: 'scores_total', effect: 'read' })
  async total(@Param() scores: Record<string, number>): Promise<string> {
    return typeof scores;
  }
}

function container(inputCheck: CompiledInputCheck): ToolContainer {
  const manifest = defineToolManifest([{
    provider: Scores,
    method: 'total',
    // The check decides; the definition is what the model would read.
    definition: { name: 'scores_total', description: 'Adds scores up.', input_schema: SCHEMA },
    effect: 'read',
    inputClass: ScoresInput,
    parameters: [{ kind: 'param', property: 'scores' }],
    inputCheck,
  }]);
  return new ToolContainer({ manifest, providers: [new Scores()] });
}

/** A parsed Record of `n` keys (a hash table in V8 past a few dozen, as the model's input is). */
function parsedScores(n: number, value: (i: number) => unknown = (i) => i): Record<string, unknown> {
  return JSON.parse(`{${Array.from({ length: n }, (_, i) => `"s${i}":${JSON.stringify(value(i))}`).join(',')}}`) as Record<string, unknown>;
}

/** `target` behind a proxy that counts how often its keys are listed (`Object.keys` and `for…in` both ask). */
function counted(target: object): { proxy: object; listings: () => number } {
  let listings = 0;
  const proxy = new Proxy(target, {
    ownKeys(t) {
      listings++;
      return Reflect.ownKeys(t);
    },
  });
  return { proxy, listings: () => listings };
}

describe.each(CHECKS)('a large Record under %s', (_name, makeCheck) => {
  it('is listed once by the framework, not once more by the check', async () => {
    const { proxy, listings } = counted(parsedScores(LISTED_KEYS_MIN));
    const [answer] = await container(makeCheck()).execute([toolUse('toolu_1', 'scores_total', { scores: proxy })]);
    expect(answer).toMatchObject({ content: 'object' });
    expect(answer.is_error).toBeUndefined();
    expect(listings()).toBe(1);
  });

  it('is refused for a bad value the same as a small one, naming its key', async () => {
    const tools = container(makeCheck());
    const bad = (n: number) => tools.execute([toolUse('toolu_2', 'scores_total', { scores: parsedScores(n, (i) => (i === n - 1 ? -1 : i)) })]);
    const [large] = await bad(LISTED_KEYS_MIN + 5);
    const [small] = await bad(3);
    expect(large.is_error).toBe(true);
    expect(large.content).toContain(`scores.s${LISTED_KEYS_MIN + 4}`);
    expect(String(large.content).replace(`s${LISTED_KEYS_MIN + 4}`, 's2')).toBe(small.content);
  });

  it('keeps no list past its call: the same object sent again, changed, is checked as it is now', async () => {
    const tools = container(makeCheck());
    const scores = parsedScores(LISTED_KEYS_MIN);
    const [first] = await tools.execute([toolUse('toolu_3', 'scores_total', { scores })]);
    expect(first.is_error).toBeUndefined();
    // Too few keys now for the walk to list it again: a list kept from the first call would name the keys deleted.
    for (let i = 3; i < LISTED_KEYS_MIN; i++) delete scores[`s${i}`];
    const [second] = await tools.execute([toolUse('toolu_4', 'scores_total', { scores })]);
    expect(second.is_error).toBeUndefined();
    scores.late = 'not a number';
    const [third] = await tools.execute([toolUse('toolu_5', 'scores_total', { scores })]);
    expect(third.is_error).toBe(true);
    expect(third.content).toContain('scores.late');
  });

  it('is listed once with no prototype too (nothing to inherit)', async () => {
    const { proxy, listings } = counted(Object.assign(Object.create(null) as object, parsedScores(LISTED_KEYS_MIN)));
    const [answer] = await container(makeCheck()).execute([toolUse('toolu_7', 'scores_total', { scores: proxy })]);
    expect(answer.is_error).toBeUndefined();
    expect(listings()).toBe(1);
  });

  it('still visits a key every object inherits, as `for…in` does', async () => {
    const tools = container(makeCheck());
    const scores = parsedScores(LISTED_KEYS_MIN);
    Object.defineProperty(Object.prototype, 'inheritedScore', { value: 'x', enumerable: true, configurable: true, writable: true });
    try {
      const [answer] = await tools.execute([toolUse('toolu_6', 'scores_total', { scores })]);
      expect(answer.is_error).toBe(true);
      // In the Record, not only at the top level (which refuses unknown keys, inherited ones too).
      expect(answer.content).toContain('scores.inheritedScore');
    } finally {
      delete (Object.prototype as { inheritedScore?: unknown }).inheritedScore;
    }
  });
});

/**
 * Wherever Ajv puts a Record (the input itself, or past its tenth variable of a kind), the check
 * lists none the walk listed: Ajv numbers its variables as it goes, and the loop it writes over a
 * Record's values must be found by any name it gives them.
 */
describe('the check after the walk lists no Record again', () => {
  const records = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`r${i}`, { type: 'object', additionalProperties: { type: 'number' } }]));
  const SCHEMAS: Array<[string, object, (i: number) => unknown, (record: object) => object]> = [
    ['the input itself a Record of objects', { type: 'object', additionalProperties: { type: 'object', properties: { n: { type: 'number' } } } }, (i) => ({ n: i }), (record) => record],
    ['the twelfth of twelve Records (key12, data22)', { type: 'object', properties: records, additionalProperties: false }, (i) => i, (record) => ({ ...Object.fromEntries(Object.keys(records).map((k) => [k, {}])), r11: record })],
  ];
  const makers: Array<[string, (schema: object) => CompiledInputCheck]> = [
    ['compiled at run time', (schema) => schemaCheck(schema)],
    ['compiled at build time', (schema) => compiledCheck(schema as ToolDefinition.InputSchema)],
  ];
  describe.each(SCHEMAS)('%s', (_name, schema, value, inputOf) => {
    it.each(makers)('%s', (_how, make) => {
      const check = make(schema);
      const { proxy, listings } = counted(parsedScores(LISTED_KEYS_MIN, value));
      const input = inputOf(proxy);
      try {
        expect(checkPlainInput(input, DEFAULT_INPUT_LIMITS)).toBeUndefined();
        const walked = listings();
        expect(check(input)).toBe(true);
        expect(listings()).toBe(walked);
      } finally {
        forgetListedKeys();
      }
    });
  });
});

describe('the walk\'s list in the check: property', () => {
  const keyPool = fc.constantFrom('a', 'b', '0', '7', '10', 'é', '名前', '', 'toString', 'constructor', 'k-1', 'nul\u0000key', '\u0000');
  const value = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 9 }) }, { weight: 1, arbitrary: fc.constantFrom(-1, 'x', null, true, [1], { n: 1 }) });
  const record = fc.tuple(
    fc.integer({ min: LISTED_KEYS_MIN - 3, max: LISTED_KEYS_MIN + 3 }),
    fc.dictionary(keyPool, value, { maxKeys: 6 }),
    fc.array(fc.tuple(fc.nat(), value), { maxLength: 3 }),
    fc.constantFrom('parsed', 'null prototype', 'inherited key'),
  ).map(([n, extra, replaced, origin]) => {
    const parsed = parsedScores(n);
    for (const [key, v] of Object.entries(extra)) parsed[key] = v;
    for (const [at, v] of replaced) parsed[`s${at % n}`] = v;
    if (origin === 'parsed') return parsed;
    const made = Object.create(origin === 'null prototype' ? null : { inherited: 'x' }) as Record<string, unknown>;
    return Object.assign(made, parsed);
  });
  const contract = (inputCheck: CompiledInputCheck): InputContract => ({ name: 'scores_total', definition: { name: 'scores_total', input_schema: SCHEMA }, inputClass: ScoresInput, parameters: [{ kind: 'param', property: 'scores' }], inputCheck });

  it('drops the list when the check throws: the object read afterwards is read as it is then', () => {
    const scores = parsedScores(LISTED_KEYS_MIN);
    const throwing: CompiledInputCheck = Object.assign(() => {
      throw new Error('check failed');
    }, { errors: null });
    expect(() => buildInput({ scores }, contract(throwing), DEFAULT_INPUT_LIMITS)).toThrow('check failed');
    scores.late = 1;
    expect(keysOf(scores)).toContain('late');
  });

  it.each(CHECKS)('%s after the walk reports what it reports alone, error for error, in the same order', (_name, makeCheck) => {
    const check = makeCheck();
    const tool = contract(check);
    fc.assert(
      fc.property(record, (scores) => {
        const input = { scores };
        const built = buildInput(input, tool, DEFAULT_INPUT_LIMITS);
        const afterWalk = check.errors ?? null;
        const alone = check(input);
        expect(built.ok).toBe(alone);
        expect(afterWalk).toEqual(check.errors ?? null);
      }),
    );
  });
});
