import 'reflect-metadata';
import fc from 'fast-check';
import { Allow, MinLength, validate } from 'class-validator';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { validateInput, type InputContract } from '../../src/validation/validate-input';
import { DEFAULT_INPUT_LIMITS } from '../../src/validation/plain-input';
import { schemaCheck } from '../../src/validation/schema-check';
import { instanceBuilder } from '../../src/validation/build-instance';

// The executor leaves class-validator out for input classes that carry only `@Allow` under a
// schema that refuses unknown keys (what tools-codegen emits for @Param tools). These tests hold
// it to the verdict the full pipeline gives, and show class-validator still runs everywhere else.

const VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false, validationError: { target: false } };

class AllowOnly {
  @Allow() name!: string;
  @Allow() tags?: string[];
  @Allow() extra?: Record<string, unknown>;
}

const closedSchema: Tool.InputSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 8 },
    tags: { type: 'array', items: { type: 'string' } },
    extra: { type: 'object' },
  },
  required: ['name'],
  additionalProperties: false,
};

const contract = (inputClass: new () => object, schema: Tool.InputSchema): InputContract => ({
  name: 'probe',
  definition: { name: 'probe', description: 'Probes validation.', input_schema: schema },
  inputClass,
});

/** The pipeline with class-validator always in it: what the verdict must be. */
async function fullVerdict(input: unknown, tool: InputContract): Promise<boolean> {
  if (!schemaCheck(tool.definition.input_schema)(input)) return false;
  const instance = instanceBuilder(tool.inputClass, tool.instancePlan)(input as object);
  return (await validate(instance, VALIDATOR_OPTIONS)).length === 0;
}

const keys = fc.constantFrom('name', 'tags', 'extra', 'other', 'constructor', 'toString', '__proto__');
const inputs = fc.oneof(
  fc.dictionary(keys, fc.jsonValue({ maxDepth: 2 })),
  fc.record({ name: fc.string({ maxLength: 10 }), tags: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }) }, { requiredKeys: ['name'] }),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('class-validator left out where it could refuse nothing', () => {
  it('gives the verdict of the full pipeline on any input (property, 1,000 runs)', async () => {
    const tool = contract(AllowOnly, closedSchema);
    await fc.assert(
      fc.asyncProperty(inputs, async (input) => {
        const checked = await validateInput(input, tool, DEFAULT_INPUT_LIMITS);
        expect(checked.ok).toBe(await fullVerdict(input, tool));
      }),
      { numRuns: 1000, seed: 1717 },
    );
  });

  it('still runs when the schema lets unknown keys through: class-validator refuses them', async () => {
    const open = contract(AllowOnly, { ...closedSchema, additionalProperties: true });
    const checked = await validateInput({ name: 'ok', other: 1 }, open, DEFAULT_INPUT_LIMITS);
    expect(checked).toEqual({ ok: false, message: expect.stringContaining('other') });
  });

  it('still runs when a property the schema names is not allowed by the class', async () => {
    class Partial {
      @Allow() name!: string;
    }
    const checked = await validateInput({ name: 'ok', tags: [] }, contract(Partial, closedSchema), DEFAULT_INPUT_LIMITS);
    expect(checked).toEqual({ ok: false, message: expect.stringContaining('tags') });
  });

  it('still runs when the class carries a constraint', async () => {
    class Constrained {
      @MinLength(3) name!: string;
      @Allow() tags?: string[];
      @Allow() extra?: Record<string, unknown>;
    }
    const checked = await validateInput({ name: 'ab' }, contract(Constrained, closedSchema), DEFAULT_INPUT_LIMITS);
    expect(checked).toEqual({ ok: false, message: expect.stringContaining('name') });
  });
});
