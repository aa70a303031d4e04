import * as fs from 'node:fs';
import * as path from 'node:path';
import { ToolContainer, type ToolManifest } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';
import { Generator } from '../src/generate';
import { FIXTURES, runFixture } from './support/fixtures';

const out = path.join(FIXTURES, 'catalog', 'src', 'tools.generated.ts');

describe('end to end: codegen → generated module → ToolContainer → execute', () => {
  let manifest: ToolManifest;
  let fixture: typeof import('./__fixtures__/catalog/src/catalog.tools');

  beforeAll(() => {
    const { result } = runFixture('catalog', out);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // ts-jest type-checks the generated module under the repository's strict tsconfig here.
    manifest = require('./__fixtures__/catalog/src/tools.generated').toolManifest;
    fixture = require('./__fixtures__/catalog/src/catalog.tools');
  });

  afterAll(() => fs.rmSync(out, { force: true }));

  const container = () => new ToolContainer({ manifest, providers: [new fixture.CatalogTools()] });

  it('the container accepts the generated manifest and exposes the definitions', () => {
    expect(container().names).toEqual(['catalog_search_products', 'catalog_type_tour', 'catalog_create_product', 'catalog_reserve', 'catalog_resize']);
  });

  it('calls a @Param tool with its arguments in parameter order, the context in its place', async () => {
    fixture.calls.length = 0;
    const [result] = await container().execute([
      toolUse('toolu_1', 'catalog_search_products', { query: 'lamp', warehouse: null, filter: { minPrice: 10, sort: 'asc' } }),
    ]);
    expect(result).toMatchObject({ tool_use_id: 'toolu_1', content: 'found lamp' });
    expect(result.is_error).toBeFalsy();
    expect(fixture.calls).toEqual([['searchProducts', 'lamp', undefined, null, 'catalog_search_products', expect.objectContaining({ minPrice: 10, sort: 'asc' })]]);
  });

  it('hands an @Input tool the validated DTO instance', async () => {
    fixture.calls.length = 0;
    const input = {
      name: 'Desk lamp', sku: 'LMP-0001', quantity: 3, contact: 'a@b.example', supplierId: '3f1c1a2e-8d4b-4c1e-9f2a-1b2c3d4e5f60',
      releasedAt: '2024-01-02T03:04:05Z', colour: 'red', warehouse: 'north', tags: ['lamp'], dimensions: { width: 10, height: 20 }, active: true,
    };
    const [result] = await container().execute([toolUse('toolu_2', 'catalog_create_product', input)]);
    expect(result).toMatchObject({ content: 'created LMP-0001' });
    const [[, dto, toolName]] = fixture.calls as [[string, object, string]];
    expect(dto.constructor.name).toBe('CreateProductInput');
    expect(dto).toMatchObject(input);
    expect(toolName).toBe('catalog_create_product');
  });

  it('turns a date-time string into a Date for a Date parameter', async () => {
    fixture.calls.length = 0;
    const input = {
      text: 't', count: 1, flag: true, direction: 'up', level: 3, names: ['a'], point: [1, 2], price: { amount: 5, currency: 'EUR' },
      scores: { a: 1 }, bounds: { min: 0, max: 1 }, mixed: 2, either: { id: 'x', label: 'y' }, labelled: { id: 'x', label: 'y' },
      partial: {}, picked: { amount: 1 }, omitted: { currency: 'USD' }, required: { amount: 1, currency: 'USD' },
      frozen: { amount: 1, currency: 'USD' }, page: { items: ['a'], total: 1 }, when: '2024-05-06T07:08:09Z',
      tree: { name: 'root', children: [{ name: 'leaf', children: [] }] }, note: null, on: true, inline: { value: 'v' },
    };
    const [result] = await container().execute([toolUse('toolu_3', 'catalog_type_tour', input)]);
    expect(result.is_error).toBeFalsy();
    const when = (fixture.calls[0] as unknown[])[20];
    expect(when).toBeInstanceOf(Date);
    expect((when as Date).toISOString()).toBe('2024-05-06T07:08:09.000Z');
  });

  it('refuses input that breaks a constraint the strict definition only states in words', async () => {
    fixture.calls.length = 0;
    const [result] = await container().execute([toolUse('toolu_4', 'catalog_reserve', { sku: 'LMP-0001', units: 11 })]);
    expect(result.is_error).toBe(true);
    expect(String(result.content)).toContain('units');
    expect(fixture.calls).toEqual([]);
  });

  it('declares a @Param input class bare, with @ValidateNested() only where a parameter is a DTO class', () => {
    const code = fs.readFileSync(out, 'utf8');
    expect(code).toContain('export class CatalogResizeInput {\n  sku!: string;\n  @ValidateNested()\n  dimensions!: DimensionsInput;\n}');
    expect(code).toContain('export class CatalogReserveInput {\n  sku!: string;\n  units!: number;\n}');
    expect(code).not.toMatch(/\bAllow\b/);
  });

  it('a @Param tool with a DTO parameter: its bare sibling is accepted and the DTO arrives as its class', async () => {
    fixture.calls.length = 0;
    const [result] = await container().execute([toolUse('toolu_5', 'catalog_resize', { sku: 'LMP-0001', dimensions: { width: 10, height: 20 } })]);
    expect(result).toMatchObject({ content: 'resized LMP-0001' });
    expect(result.is_error).toBeFalsy();
    const [[, sku, dimensions]] = fixture.calls as [[string, string, object]];
    expect(sku).toBe('LMP-0001');
    expect(dimensions.constructor.name).toBe('DimensionsInput');
  });
});

describe('a manifest and a checks module of two different runs', () => {
  // A module path of its own: jest keeps what it read of a path for the whole file.
  const mismatched = path.join(FIXTURES, 'catalog', 'src', 'tools.mismatched.ts');
  const checks = path.join(FIXTURES, 'catalog', 'src', 'tools.mismatched.checks.ts');

  beforeAll(() => new Generator({ project: path.join(FIXTURES, 'catalog', 'tsconfig.json'), out: mismatched }).run());
  afterAll(() => [mismatched, checks].forEach((file) => fs.rmSync(file, { force: true })));

  it('fail loudly on import, naming what to do, instead of checking one tool with another tool’s check', () => {
    // What a run stopped between its two writes leaves: a checks module of another run.
    const written = fs.readFileSync(checks, 'utf8');
    fs.writeFileSync(checks, written.replace(/export const generation: string = '[0-9a-f]+';/, "export const generation: string = '0000000000000000';"));
    expect(() => require('./__fixtures__/catalog/src/tools.mismatched')).toThrow(
      "tools.mismatched.checks.ts was not written by the tools-codegen run that wrote this module (one stopped between its two writes?), so its checks may not be these tools': run tools-codegen again.",
    );
  });
});
