import * as fs from 'node:fs';
import * as path from 'node:path';
import { ToolContainer, type ToolManifest } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { GenerateResult } from '../src/generate';
import type { JsonSchema } from '../src/schema/json-schema';
import { contractInput } from './support/contract-inputs';
import { FIXTURES, runFixture } from './support/fixtures';

// The differential fuzz of DESIGN.md "Validation: one contract, enforced exactly": a tool set
// written as a user would, through the real codegen, then an independent JSON Schema 2020-12
// validator on each tool's full schema against what `ToolContainer.execute` does.

const out = path.join(FIXTURES, 'contract', 'src', 'tools.generated.ts');
const RUNS = 1_000;

/** What the method receives for a key the input left out: the documented defaults. */
const DEFAULTS: Record<string, Record<string, unknown>> = {
  contract_create_order: { keep: 20 },
  contract_schedule: { limit: 10 },
  contract_reserve: {},
  contract_file_category: {},
};

/** Coupons the custom constraint accepts and near misses, so both of its verdicts occur. */
const HINTS = { coupon: fc.constantFrom('SAVE5', 'SAVE15', 'SAVE50', 'SAVE3', 'SAVE55', 'save10') };

/** `multipleOf` on the decimals the JSON text states, written apart from the run time's. */
function decimalMultiple(value: number, divisor: number): boolean {
  const scaled = (n: number) => {
    const [mantissa, exponent = '0'] = n.toExponential().split('e');
    const [whole, fraction = ''] = mantissa.replace('-', '').split('.');
    return { digits: BigInt(whole + fraction), scale: fraction.length - Number(exponent) };
  };
  const a = scaled(value);
  const b = scaled(divisor);
  const scale = Math.max(a.scale, b.scale);
  return (a.digits * 10n ** BigInt(scale - a.scale)) % (b.digits * 10n ** BigInt(scale - b.scale)) === 0n;
}

function referenceValidator(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword({ keyword: 'multipleOf', type: 'number', schemaType: 'number', validate: (d: number, v: number) => decimalMultiple(v, d) });
  return ajv;
}

/**
 * The keys the fixture types as `Date` (`at` and `until` of the `@Param` tools, `dueAt` and
 * `opened` of the DTOs), read off contract.tools.ts and contract.dto.ts, not off the manifest:
 * date-time text sent there must arrive as a `Date`, or a conversion the plan lost would pass.
 */
const DATE_KEYS = new Set(['at', 'until', 'dueAt', 'opened']);

/** Whether the method got the JSON that was sent: equal values, `Date`s from date-time text, defaults for absent keys. */
function difference(sent: unknown, got: unknown, where: string, defaults: Record<string, unknown> = {}, typedDate = false): string | undefined {
  if (typedDate && typeof sent === 'string' && !(got instanceof Date)) return `${where}: ${JSON.stringify(sent)} typed Date arrived as ${typeof got}`;
  if (got instanceof Date) {
    if (typeof sent !== 'string') return `${where}: a Date from ${JSON.stringify(sent)}`;
    const expected = Date.parse(sent.toUpperCase().replace(' ', 'T').replace(/:60(\.\d+)?/, ':59.999'));
    return got.getTime() === expected ? undefined : `${where}: Date ${got.toISOString()} from ${sent}`;
  }
  if (Array.isArray(sent)) {
    if (!Array.isArray(got) || got.length !== sent.length) return `${where}: array changed`;
    for (let i = 0; i < sent.length; i++) {
      const problem = difference(sent[i], got[i], `${where}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof sent === 'object' && sent !== null) {
    if (typeof got !== 'object' || got === null || Array.isArray(got)) return `${where}: object became ${typeof got}`;
    const gotKeys = Object.keys(got).filter((k) => (got as Record<string, unknown>)[k] !== undefined);
    const sentKeys = Object.keys(sent);
    const added = gotKeys.filter((k) => !sentKeys.includes(k) && !(k in defaults));
    const lost = sentKeys.filter((k) => !gotKeys.includes(k));
    if (added.length > 0 || lost.length > 0) return `${where}: keys added ${added.join(',')} lost ${lost.join(',')}`;
    for (const key of gotKeys) {
      const problem = sentKeys.includes(key)
        ? difference((sent as Record<string, unknown>)[key], (got as Record<string, unknown>)[key], `${where}.${key}`, {}, DATE_KEYS.has(key))
        : Object.is((got as Record<string, unknown>)[key], defaults[key]) ? undefined : `${where}.${key}: not the default`;
      if (problem) return problem;
    }
    return undefined;
  }
  return Object.is(sent, got) ? undefined : `${where}: ${JSON.stringify(sent)} became ${JSON.stringify(got)}`;
}

/** The field paths (`lines.[].sku`) whose decorators the codegen warned are stricter than the schema. */
function warnedFields(result: GenerateResult, method: string, dtoParameter: string | undefined): Set<string> {
  const fields = new Set<string>();
  for (const diagnostic of result.diagnostics) {
    if (diagnostic.severity !== 'warning' || !diagnostic.message.includes('stricter than any JSON Schema keyword')) continue;
    const [where, ...rest] = diagnostic.path.split(' → ');
    if (where !== `ContractTools.${method}`) continue;
    fields.add((dtoParameter && rest[0] === dtoParameter ? rest.slice(1) : rest).join('.'));
  }
  return fields;
}

function refusedFields(message: string): string[] {
  return message
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2, line.indexOf(':')).replace(/\[\d+\]/g, '.[]'));
}

describe('differential fuzz: the input_schema is the contract, the run time enforces exactly it', () => {
  let result: GenerateResult;
  let manifest: ToolManifest;
  let fixture: typeof import('./__fixtures__/contract/src/contract.tools');
  let dto: typeof import('./__fixtures__/contract/src/contract.dto');
  const reference = referenceValidator();

  beforeAll(() => {
    result = runFixture('contract', out).result;
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    manifest = require('./__fixtures__/contract/src/tools.generated').toolManifest;
    fixture = require('./__fixtures__/contract/src/contract.tools');
    dto = require('./__fixtures__/contract/src/contract.dto');
  });

  afterAll(() => fs.rmSync(out, { force: true }));

  const cases = [
    { tool: 'contract_create_order', method: 'createOrder', dtoParameter: 'input', names: undefined },
    { tool: 'contract_schedule', method: 'schedule', dtoParameter: undefined, names: ['text', 'at', 'level', 'kind', 'ref', 'price', 'scores', 'address', 'limit'] },
    { tool: 'contract_reserve', method: 'reserve', dtoParameter: undefined, names: ['code', 'units', 'until'] },
    { tool: 'contract_file_category', method: 'fileCategory', dtoParameter: 'input', names: undefined },
  ];

  it.each(cases)('$tool', async ({ tool, method, dtoParameter, names }) => {
    const container = new ToolContainer({ manifest, providers: [new fixture.ContractTools()] });
    // The full schema: for the strict tool, before keywords moved into descriptions.
    const schema = result.tools.find((t) => t.name === tool)!.inputSchema as JsonSchema;
    const accepts = reference.compile(JSON.parse(JSON.stringify(schema)));
    const warned = warnedFields(result, method, dtoParameter);
    const tally = { schemaValid: 0, schemaInvalid: 0, ran: 0, refusedByDecorator: 0, paramDates: 0 };

    await fc.assert(
      fc.asyncProperty(contractInput(schema, HINTS), async (generated) => {
        const input = JSON.parse(JSON.stringify(generated)) as unknown;
        const valid = accepts(input);
        tally[valid ? 'schemaValid' : 'schemaInvalid']++;
        fixture.received.length = 0;
        const [answer] = await container.execute([toolUse('toolu_fuzz', tool, input as Record<string, unknown>)]);
        const call = fixture.received[0];
        if (!valid) {
          // Refused before the method, as invalid input.
          expect(call).toBeUndefined();
          expect(answer.is_error).toBe(true);
          expect(String(answer.content)).toMatch(/^Invalid input/);
          return;
        }
        if (answer.is_error) {
          // Only a decorator the codegen warned about, and stated in the description, may refuse.
          expect(call).toBeUndefined();
          const fields = refusedFields(String(answer.content));
          expect(fields.length).toBeGreaterThan(0);
          for (const field of fields) expect(warned).toContain(field);
          tally.refusedByDecorator++;
          return;
        }
        tally.ran++;
        const got = names
          ? Object.fromEntries(names.map((name, i) => [name, call.args[i]]).filter(([, v]) => v !== undefined))
          : call.args[0];
        expect(difference(input, got, '(input)', DEFAULTS[tool])).toBeUndefined();
        if (names && Object.values(got as object).some((value) => value instanceof Date)) tally.paramDates++;
        if (tool === 'contract_create_order') expectInstances(got as Record<string, unknown>, dto);
        if (tool === 'contract_file_category') expectCategories(got as Record<string, unknown>, dto);
      }),
      { numRuns: RUNS },
    );
    // Both sides of the contract must be exercised, or agreement would be vacuous.
    expect(tally.schemaValid).toBeGreaterThan(RUNS / 5);
    expect(tally.schemaInvalid).toBeGreaterThan(RUNS / 5);
    expect(tally.ran).toBeGreaterThan(RUNS / 10);
    // Both `@Param` tools take a `Date` (`at`, `until`): runs that converted one were made.
    if (names) expect(tally.paramDates).toBeGreaterThan(RUNS / 20);
  });

  it('only the warned decorators are stricter than the schema: @IsEmail and the custom @IsCoupon', () => {
    expect([...warnedFields(result, 'createOrder', 'input')].sort()).toEqual(['coupon', 'email']);
    expect(warnedFields(result, 'schedule', undefined).size).toBe(0);
  });
});

/** Nested DTOs are instances of their classes without `@Type`; a record has no prototype. */
function expectInstances(got: Record<string, unknown>, dto: typeof import('./__fixtures__/contract/src/contract.dto')): void {
  expect(got).toBeInstanceOf(dto.CreateOrderDto);
  expect(got.address).toBeInstanceOf(dto.AddressDto);
  for (const line of got.lines as unknown[]) expect(line).toBeInstanceOf(dto.LineDto);
  if (got.billing !== undefined && got.billing !== null) expect(got.billing).toBeInstanceOf(dto.AddressDto);
  if (got.attributes !== undefined) expect(Object.getPrototypeOf(got.attributes)).toBeNull();
}

/** A recursive DTO: every category, at every depth, under `children` or in `links`, is a CategoryDto. */
function expectCategories(got: Record<string, unknown>, dto: typeof import('./__fixtures__/contract/src/contract.dto')): void {
  expect(got).toBeInstanceOf(dto.FileCategoryDto);
  const visit = (category: unknown): void => {
    expect(category).toBeInstanceOf(dto.CategoryDto);
    const { children, links } = category as { children?: unknown[]; links?: Record<string, unknown> };
    for (const child of children ?? []) visit(child);
    if (links !== undefined) {
      expect(Object.getPrototypeOf(links)).toBeNull();
      for (const key of Object.keys(links)) visit(links[key]);
    }
  };
  visit(got.category);
  if (got.under !== undefined && got.under !== null) visit(got.under);
}
