import Ajv2020 from 'ajv/dist/2020';
import { runFixture } from './support/fixtures';
import type { JsonSchema } from '../src/schema/json-schema';
import { toStrictSubset } from '../src/schema/strict-subset';
import type { ToolModel } from '../src/model/tool-model';

const { result, generator } = runFixture('catalog');
const tool = (name: string): ToolModel => {
  const found = result.tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} among ${result.tools.map((t) => t.name).join(', ')}`);
  return found;
};
const props = (name: string) => tool(name).definition.input_schema.properties as Record<string, JsonSchema>;

describe('catalog fixture: what reaches the definitions', () => {
  it('finds every @Tool method, names them from @ToolGroup or @Tool({ name }), and reports no errors', () => {
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.tools.map((t) => [t.name, t.method, t.effect])).toEqual([
      ['catalog_search_products', 'searchProducts', 'read'],
      ['catalog_type_tour', 'typeTour', 'read'],
      ['catalog_create_product', 'createProduct', 'write'],
      ['catalog_reserve', 'reserve', 'write'],
      ['catalog_resize', 'resize', 'write'],
    ]);
  });

  it('takes the description from the JSDoc summary and body, tags removed, whitespace normalized', () => {
    expect(tool('catalog_search_products').definition.description).toBe(
      'Searches the product catalog by free text. Use it when the customer looks for a product but has no product number. It does not change stock or prices.',
    );
  });

  it('maps every method parameter in order, @Ctx included', () => {
    expect(tool('catalog_search_products').parameters).toEqual([
      { kind: 'param', property: 'query' },
      { kind: 'param', property: 'limit' },
      { kind: 'param', property: 'warehouse' },
      { kind: 'ctx' },
      { kind: 'param', property: 'filter' },
    ]);
    expect(tool('catalog_create_product').parameters).toEqual([{ kind: 'input' }, { kind: 'ctx' }]);
    expect(tool('catalog_create_product').input).toEqual({ kind: 'dto', className: 'CreateProductInput', file: expect.stringMatching(/catalog\.dto\.ts$/) });
  });

  it('writes @Param options, @param descriptions, optional and nullable parameters', () => {
    const schema = tool('catalog_search_products').definition.input_schema;
    expect(schema.required).toEqual(['query', 'warehouse']);
    expect(schema.additionalProperties).toBe(false);
    expect(props('catalog_search_products').query).toEqual({ type: 'string', description: 'Words to search for, 2 to 40 characters.', minLength: 2, maxLength: 40 });
    expect(props('catalog_search_products').limit).toEqual({ type: 'number', description: 'How many products to return, 1 to 50.', minimum: 1, maximum: 50 });
    expect(props('catalog_search_products').warehouse).toEqual({
      type: ['string', 'null'], description: 'Only products stored here; null for every warehouse.', enum: ['south', 'north', null],
    });
  });

  it('reads every JSDoc tag of a nested interface, and leaves @hidden properties out', () => {
    const filter = props('catalog_search_products').filter;
    expect(filter.description).toBe('Narrows the result.');
    expect(filter.properties).toEqual({
      minPrice: { type: 'number', description: 'Lowest price in cents.', exclusiveMinimum: 0, exclusiveMaximum: 1000000, multipleOf: 5 },
      words: { type: 'array', description: 'Words that must appear.', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
      colour: { type: 'string', description: 'Colour code.', pattern: '^#[0-9a-f]{6}$', minLength: 7, maxLength: 7 },
      alertEmail: { type: 'string', description: 'Contact for alerts.', format: 'email' },
      sort: { type: 'string', title: 'Sort', description: 'Sort order.', enum: ['desc', 'asc'], default: 'asc' },
      legacy: { type: 'boolean', description: 'Old flag, kept for compatibility.', deprecated: true },
    });
    expect(filter.required).toBeUndefined();
    expect(filter.additionalProperties).toBe(false);
  });

  it('turns @example JSON into input_examples', () => {
    expect(tool('catalog_search_products').definition.input_examples).toEqual([
      { query: 'desk lamp', limit: 5, warehouse: 'north' },
      { query: 'chair', warehouse: null, filter: { sort: 'asc' } },
    ]);
  });

  describe('type → schema', () => {
    const p = () => props('catalog_type_tour');
    const money = {
      type: 'object',
      properties: {
        amount: { type: 'integer', description: 'Amount in cents.', minimum: 0 },
        currency: { type: 'string', description: 'ISO 4217 currency code.', enum: ['USD', 'EUR'] },
      },
      required: ['amount', 'currency'],
      additionalProperties: false,
    };

    it('primitives', () => {
      expect(p().text).toEqual({ type: 'string', description: 'A string.' });
      expect(p().count).toEqual({ type: 'number', description: 'A number.' });
      expect(p().flag).toEqual({ type: 'boolean', description: 'A boolean.' });
      expect(p().on).toEqual({ type: 'boolean', description: 'A boolean literal.', enum: [true] });
    });

    it('literal unions and enums keep source order', () => {
      expect(p().direction).toEqual({ type: 'string', description: 'A literal union.', enum: ['up', 'down', 'left'] });
      expect(p().level).toEqual({ type: 'number', description: 'A numeric enum.', enum: [1, 3] });
    });

    it('arrays, readonly arrays and tuples', () => {
      expect(p().names).toEqual({ type: 'array', description: 'A readonly array.', items: { type: 'string' } });
      expect(p().point).toEqual({
        type: 'array', description: 'A tuple of two numbers.', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2, maxItems: 2,
      });
    });

    it('nested interfaces are inlined, with their JSDoc tags', () => {
      expect(p().price).toEqual({ ...money, description: 'A nested interface.' });
    });

    it('records: open ones use additionalProperties, literal keys become properties', () => {
      expect(p().scores).toEqual({ type: 'object', description: 'A record of numbers.', additionalProperties: { type: 'number' } });
      expect(p().bounds).toEqual({
        type: 'object', description: 'A record with literal keys.',
        properties: { min: { type: 'number' }, max: { type: 'number' } }, required: ['min', 'max'], additionalProperties: false,
      });
    });

    it('unions of primitives and of objects', () => {
      expect(p().mixed).toEqual({ type: ['string', 'number'], description: 'A union of primitives.' });
      const either = p().either;
      expect(either.description).toBe('A union of object types.');
      expect(either.anyOf).toEqual([
        money,
        {
          type: 'object',
          properties: { id: { type: 'string', description: 'Stable identifier.' }, label: { type: 'string', description: 'Label shown to customers.' } },
          required: ['id', 'label'],
          additionalProperties: false,
        },
      ]);
    });

    it('intersections merge into one object', () => {
      expect(p().labelled.properties).toEqual({
        id: { type: 'string', description: 'Stable identifier.' },
        label: { type: 'string', description: 'Label shown to customers.' },
      });
      expect(p().labelled.required).toEqual(['id', 'label']);
    });

    it('utility types and instantiated generics resolve through the checker', () => {
      expect(p().partial.required).toBeUndefined();
      expect(Object.keys(p().partial.properties as object)).toEqual(['amount', 'currency']);
      expect(p().picked).toEqual({
        type: 'object', description: 'A Pick.', properties: { amount: money.properties.amount }, required: ['amount'], additionalProperties: false,
      });
      expect(p().omitted.properties).toEqual({ currency: money.properties.currency });
      expect(p().required.required).toEqual(['amount', 'currency']);
      expect(p().frozen).toEqual({ ...money, description: 'A Readonly.' });
      expect(p().page).toEqual({
        type: 'object', description: 'An instantiated generic.',
        properties: {
          items: { type: 'array', description: 'The items of this page.', items: { type: 'string' } },
          total: { type: 'number', description: 'How many items there are in all.' },
        },
        required: ['items', 'total'], additionalProperties: false,
      });
    });

    it('Date, nullable, inline type literals', () => {
      expect(p().when).toEqual({ type: 'string', description: 'A date.', format: 'date-time' });
      expect(p().note).toEqual({ type: ['string', 'null'], description: 'A nullable string.' });
      expect(p().inline).toEqual({
        type: 'object', description: 'An inline type literal.',
        properties: { value: { type: 'string', description: 'Inline field.' } }, required: ['value'], additionalProperties: false,
      });
    });

    it('recursive types go through $defs', () => {
      const schema = tool('catalog_type_tour').definition.input_schema;
      expect(p().tree).toEqual({ $ref: '#/$defs/Category', description: 'A recursive type.' });
      expect(schema.$defs).toEqual({
        Category: {
          type: 'object',
          description: 'A node of the category tree.',
          properties: {
            name: { type: 'string', description: 'Category name.' },
            children: { type: 'array', description: 'Sub-categories, as deep as needed.', items: { $ref: '#/$defs/Category' } },
          },
          required: ['name', 'children'],
          additionalProperties: false,
        },
      });
    });
  });

  it('reads a DTO: JSDoc, class-validator decorators in any order, a referenced type\'s JSDoc when the property has none', () => {
    const schema = tool('catalog_create_product').definition.input_schema;
    const p = schema.properties as Record<string, JsonSchema>;
    expect(Object.keys(schema)).toEqual(['type', 'properties', 'required', 'additionalProperties']);
    expect(schema.required).toEqual(['name', 'sku', 'quantity', 'contact', 'supplierId', 'releasedAt', 'colour', 'warehouse', 'tags', 'dimensions', 'active']);
    expect(p.name).toEqual({ type: 'string', description: 'Product name as shown in the shop.', minLength: 3, maxLength: 80 });
    expect(p.sku).toEqual({ type: 'string', description: 'Stock keeping unit, like ABC-1234.', pattern: '^[A-Z]{3}-\\d{4}$' });
    expect(p.quantity).toEqual({ type: 'integer', description: 'Units in stock.', minimum: 0, maximum: 10000 });
    // @IsEmail and @IsUrl check more than `format` says: the rule is stated in words.
    expect(p.contact).toEqual({
      type: 'string', format: 'email',
      description: 'Contact e-mail of the supplier. Also: an e-mail address whose local part has at most 64 bytes and whose domain has at most 254 and a top-level domain.',
    });
    expect(p.homepage).toEqual({
      type: 'string', format: 'uri',
      description: 'Product page, with https://. Also: a web URL: scheme http, https, ftp; a host name with a top-level domain (not localhost) or an IP address; no underscore in the host; at most 2084 characters.',
    });
    // @IsUUID and @IsDateString become class-validator's own regexes beside the format: both sides accept the same.
    expect(p.supplierId).toMatchObject({ type: 'string', description: "Supplier's identifier of the product.", format: 'uuid' });
    expect(new RegExp(p.supplierId.pattern as string, 'u').test('3f1c1a2e-8d4b-4c1e-9f2a-1b2c3d4e5f60')).toBe(true);
    expect(new RegExp(p.supplierId.pattern as string, 'u').test('3f1c1a2e-8d4b-0c1e-9f2a-1b2c3d4e5f60')).toBe(false);
    expect(p.releasedAt).toMatchObject({ type: 'string', description: 'When the product was released, ISO 8601.', format: 'date-time' });
    expect(new RegExp(p.releasedAt.pattern as string, 'u').test('2016-12-31T23:59:60Z')).toBe(false);
    expect(p.onSaleAt).toMatchObject({ type: 'string', description: 'When the product goes on sale, ISO 8601.', format: 'date-time', pattern: p.releasedAt.pattern });
    expect(p.colour).toEqual({ type: 'string', description: 'Colour of the product.', enum: ['red', 'green', 'blue'] });
    expect(p.warehouse).toEqual({ type: 'string', description: 'Where a product is stored.', enum: ['south', 'north'] });
    expect(p.tags).toEqual({
      type: 'array', description: 'Search tags, each at most 20 characters.',
      items: { type: 'string', minLength: 2, maxLength: 20 }, minItems: 1, maxItems: 5, uniqueItems: true,
    });
    expect(p.dimensions).toEqual({
      type: 'object', description: 'Parcel size.',
      properties: {
        width: { type: 'number', description: 'Width in centimetres.', exclusiveMinimum: 0 },
        height: { type: 'number', description: 'Height in centimetres.', minimum: 1, maximum: 300 },
      },
      required: ['width', 'height'], additionalProperties: false,
    });
    expect(p.active).toEqual({ type: 'boolean', description: 'Whether the product is listed.' });
    expect(tool('catalog_create_product').definition.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('strict tools: keywords outside the strict subset move into the description, with a warning; the run-time schema keeps them', () => {
    const reserve = tool('catalog_reserve');
    expect(reserve.definition.strict).toBe(true);
    expect(reserve.definition.input_schema.properties).toEqual({
      sku: { type: 'string', description: 'Stock keeping unit, like ABC-1234.\n\n{pattern: "^[A-Z]{3}-\\\\d{4}$"}' },
      units: { type: 'number', description: 'Units to reserve, 1 to 10.\n\n{minimum: 1, maximum: 10}' },
    });
    expect((reserve.inputSchema.properties as Record<string, JsonSchema>).units).toEqual({ type: 'number', description: 'Units to reserve, 1 to 10.', minimum: 1, maximum: 10 });
    const warnings = result.diagnostics.filter((d) => d.path.startsWith('CatalogTools.reserve'));
    expect(warnings.map((d) => [d.severity, d.path, d.message])).toEqual([
      ['warning', 'CatalogTools.reserve → sku', expect.stringContaining('strict tool: pattern cannot be enforced by the API')],
      ['warning', 'CatalogTools.reserve → units', expect.stringContaining('strict tool: minimum, maximum cannot be enforced by the API')],
    ]);
  });

  it('every input_schema is valid JSON Schema 2020-12 with an object root and no $schema', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const { definition, inputSchema } of result.tools) {
      for (const schema of [definition.input_schema, inputSchema]) {
        expect(ajv.validateSchema(schema)).toBe(true);
        expect(schema.type).toBe('object');
        expect(schema.$schema).toBeUndefined();
        expect(schema.anyOf).toBeUndefined();
      }
    }
  });

  it('writes the same bytes on every run', () => {
    expect(generator.run().code).toBe(result.code);
  });
});

describe('strict subset', () => {
  it('an open object (object, a Record) is closed for the API and says in its description that it was open', () => {
    const { schema, moved } = toStrictSubset({ type: 'object', properties: { meta: { type: 'object' }, scores: { type: 'object', additionalProperties: { type: 'number' } } }, required: [], additionalProperties: false });
    expect(schema.properties).toEqual({
      meta: { type: 'object', properties: {}, additionalProperties: false, description: '{additionalProperties: true}' },
      scores: { type: 'object', properties: {}, additionalProperties: false, description: '{additionalProperties: {"type":"number"}}' },
    });
    expect(moved).toEqual([{ path: ['meta'], keywords: ['additionalProperties'] }, { path: ['scores'], keywords: ['additionalProperties'] }]);
  });
});
