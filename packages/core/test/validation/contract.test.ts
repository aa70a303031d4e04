import 'reflect-metadata';
import { Allow, IsDate, IsEnum, IsIn, IsObject, IsOptional, IsString, Matches, ValidateBy, ValidateNested } from 'class-validator';
import { Input, Tool, ToolContainer, defineToolManifest, type InstancePlan, type ToolManifestEntry } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';

// One test per defect the issue measured, each a DTO as users write it, with the schema and the
// instance plan tools-codegen writes for it. On the old pipeline (class-transformer +
// class-validator only) every one of them fails.

type Schema = ToolManifestEntry['definition']['input_schema'];

/** Runs `input` through one @Input tool; returns the answer and what the method received. */
async function call(inputClass: new () => object, schema: Schema, input: unknown, plan?: InstancePlan, fullSchema?: Schema) {
  const received: unknown[] = [];
  class Tools {
    @Tool({ name: 'probe', effect: 'read' })
    probe(@Input() value: object) {
      received.push(value);
      return 'ok';
    }
  }
  const manifest = defineToolManifest([
    {
      provider: Tools,
      method: 'probe',
      definition: { name: 'probe', description: 'Probes validation.', input_schema: schema },
      effect: 'read',
      inputClass,
      parameters: [{ kind: 'input' }],
      ...(plan ? { instancePlan: plan } : {}),
      ...(fullSchema ? { inputSchema: fullSchema } : {}),
    },
  ]);
  const container = new ToolContainer({ manifest, providers: [new Tools()] });
  const [answer] = await container.execute([toolUse('toolu_1', 'probe', input as Record<string, unknown>)]);
  return { answer, received: received[0] as any, error: answer.is_error === true ? String(answer.content) : undefined };
}

const object = (properties: Record<string, unknown>, required: string[] = []): Schema => ({ type: 'object', properties, required, additionalProperties: false });
const ADDRESS_SCHEMA = object({ street: { type: 'string', description: 'Street and number.', minLength: 1 } }, ['street']);

class Address {
  /** Street and number; a custom rule refuses a street without a digit. */
  @IsString()
  @ValidateBy({ name: 'hasNumber', validator: { validate: (v: unknown) => typeof v === 'string' && /\d/.test(v), defaultMessage: () => '$property must contain a house number' } })
  street!: string;
}

describe('@ValidateNested() without @Type', () => {
  class Order {
    @ValidateNested() address!: Address;
  }
  const schema = object({ address: ADDRESS_SCHEMA }, ['address']);
  const plan: InstancePlan = { properties: { address: { shape: 'Address' } }, shapes: { Address: { class: Address } } };

  it('accepts a valid address and hands the method an Address instance', async () => {
    const { error, received } = await call(Order, schema, { address: { street: 'Rua A 1' } }, plan);
    expect(error).toBeUndefined();
    expect(received).toBeInstanceOf(Order);
    expect(received.address).toBeInstanceOf(Address);
    expect(received.address.street).toBe('Rua A 1');
  });

  it("runs the nested class's own decorators, custom constraints included", async () => {
    const { error } = await call(Order, schema, { address: { street: 'Rua A' } }, plan);
    expect(error).toContain('- address.street: must contain a house number. Expected: Street and number. Got: "Rua A"');
  });

  it.each([[{}], [{ address: {} }], [{ address: [] }], [{ address: null }]])('refuses %j: a missing, empty or non-object address', async (input) => {
    const { error, received } = await call(Order, schema, input, plan);
    expect(error).toMatch(/^Invalid input for probe:\n- address/);
    expect(received).toBeUndefined();
  });
});

describe('class instances held by a record, where class-validator does not walk', () => {
  class Book {
    @ValidateNested() addresses!: Record<string, Address>;
  }
  const schema = object({ addresses: { type: 'object', additionalProperties: ADDRESS_SCHEMA } }, ['addresses']);
  const plan: InstancePlan = {
    properties: { addresses: { shape: 'Addresses' } },
    shapes: { Addresses: { additional: { shape: 'Address' } }, Address: { class: Address } },
  };

  it("runs each held instance's decorators and names the failing field under the keys that lead to it", async () => {
    const { error, received } = await call(Book, schema, { addresses: { home: { street: 'Rua A 1' }, work: { street: 'Rua B' } } }, plan);
    expect(error).toMatch(/^Invalid input for probe:\n- addresses\.work\.street: must contain a house number\. .*Got: "Rua B"\nFix the input and try again\.$/);
    expect(received).toBeUndefined();
  });

  it('hands the method the instances when every one passes', async () => {
    const { error, received } = await call(Book, schema, { addresses: { home: { street: 'Rua A 1' } } }, plan);
    expect(error).toBeUndefined();
    expect(received.addresses.home).toBeInstanceOf(Address);
  });

  it('runs them also when the class around the record carries only a whitelist, which alone would not need class-validator', async () => {
    class Shelf {
      @Allow() addresses!: Record<string, Address>;
    }
    const { error, received } = await call(Shelf, schema, { addresses: { work: { street: 'Rua B' } } }, plan);
    expect(error).toMatch(/^Invalid input for probe:\n- addresses\.work\.street: must contain a house number\. /);
    expect(received).toBeUndefined();
  });
});

describe('decorators given groups', () => {
  // The boundary validates with no groups, as class-validator does by default: a decorator's
  // groups do not switch it off, even on a class that otherwise carries only a whitelist.
  class Label {
    @Allow() @Matches(/^[a-z]+$/, { groups: ['strict'] }) tag!: string;
  }
  const schema = object({ tag: { type: 'string' } }, ['tag']);

  it('still applies them', async () => {
    expect((await call(Label, schema, { tag: 'ABC' })).error).toBe('Invalid input for probe:\n- tag: must match /^[a-z]+$/ regular expression. Got: "ABC"\nFix the input and try again.');
    expect((await call(Label, schema, { tag: 'abc' })).error).toBeUndefined();
  });
});

describe('multipleOf on decimals', () => {
  class Price {
    @Allow() unitPrice!: number;
  }
  const schema = object({ unitPrice: { type: 'number', description: 'Price in euros, to the cent.', multipleOf: 0.01 } }, ['unitPrice']);

  it.each([19.99, 1, 10, 0.5, 0.3, 1234.56, 0])('accepts %p as a multiple of 0.01', async (unitPrice) => {
    expect((await call(Price, schema, { unitPrice })).error).toBeUndefined();
  });

  it.each([0.005, 19.999, 1e-7])('refuses %p', async (unitPrice) => {
    expect((await call(Price, schema, { unitPrice })).error).toContain(`- unitPrice: must be a multiple of 0.01. Expected: Price in euros, to the cent. Got: ${unitPrice}`);
  });
});

describe('@IsOptional() dueAt?: Date', () => {
  class Task {
    @IsOptional() @IsDate() dueAt?: Date;
  }
  const schema = object({ dueAt: { type: 'string', description: 'When it is due.', format: 'date-time' } });
  const plan: InstancePlan = { properties: { dueAt: 'date' } };

  it('hands the method a Date', async () => {
    const { error, received } = await call(Task, schema, { dueAt: '2024-05-06T07:08:09+02:00' }, plan);
    expect(error).toBeUndefined();
    expect(received.dueAt).toBeInstanceOf(Date);
    expect(received.dueAt.toISOString()).toBe('2024-05-06T05:08:09.000Z');
  });

  it('leaves an absent date absent', async () => {
    const { received } = await call(Task, schema, {}, plan);
    expect(Object.keys(received)).toEqual([]);
  });

  it.each([0, false, '', null])('refuses %p', async (dueAt) => {
    const { error, received } = await call(Task, schema, { dueAt }, plan);
    expect(error).toMatch(/^Invalid input for probe:\n- dueAt: must be (string|an RFC 3339 date-time)/);
    expect(received).toBeUndefined();
  });

  it('reads a leap second the same on every engine, not through Date\'s own parser (issue 25)', async () => {
    // Node refuses 23:59:60; other engines read it as the next minute, one second after the text sent.
    const RealDate = Date;
    class NextMinuteDate extends RealDate {
      constructor(...args: unknown[]) {
        const [text] = args;
        if (typeof text === 'string' && /:60(\.\d+)?(Z|[+-])/.test(text)) super(RealDate.parse(text.replace(/:60(\.\d+)?/, ':59')) + 1000);
        else super(...(args as []));
      }
    }
    globalThis.Date = NextMinuteDate as DateConstructor;
    try {
      const { received } = await call(Task, schema, { dueAt: '2016-12-31T23:59:60Z' }, plan);
      expect(received.dueAt.toISOString()).toBe('2016-12-31T23:59:59.999Z');
    } finally {
      globalThis.Date = RealDate;
    }
  });

  it('reads a leap second as the last millisecond of its minute, lower-case t and z as T and Z', async () => {
    expect((await call(Task, schema, { dueAt: '2016-12-31T23:59:60Z' }, plan)).received.dueAt.toISOString()).toBe('2016-12-31T23:59:59.999Z');
    expect((await call(Task, schema, { dueAt: '2016-12-31T23:59:60.5Z' }, plan)).received.dueAt.toISOString()).toBe('2016-12-31T23:59:59.999Z');
    expect((await call(Task, schema, { dueAt: '2016-12-31T23:59:60.123456Z' }, plan)).received.dueAt.toISOString()).toBe('2016-12-31T23:59:59.999Z');
    expect((await call(Task, schema, { dueAt: '2017-01-01T00:59:60+01:00' }, plan)).received.dueAt.toISOString()).toBe('2016-12-31T23:59:59.999Z');
    expect((await call(Task, schema, { dueAt: '2016-12-31 23:59:60z' }, plan)).received.dueAt.toISOString()).toBe('2016-12-31T23:59:59.999Z');
    expect((await call(Task, schema, { dueAt: '2024-05-06t07:08:09z' }, plan)).received.dueAt.toISOString()).toBe('2024-05-06T07:08:09.000Z');
  });
});

describe('what @IsOptional, @IsObject, @IsString and @IsEnum let through where the schema does not', () => {
  enum Priority { Low = 1, High = 3 }
  class Form {
    @IsOptional() @IsString() note?: string;
    @IsOptional() @IsObject() weights?: Record<string, number>;
    @IsOptional() @IsString() wrap?: 'paper' | 'box';
    @IsOptional() @IsEnum(Priority) priority?: Priority;
  }
  const schema = object({
    note: { type: 'string' },
    weights: { type: 'object', additionalProperties: { type: 'number' } },
    wrap: { type: 'string', enum: ['paper', 'box'] },
    priority: { type: 'number', enum: [1, 3] },
  });
  const plan: InstancePlan = { properties: { weights: { shape: 'Record' } }, shapes: { Record: { additional: 'json' } } };

  it.each([
    [{ note: null }, '- note: must be string.'],
    [{ weights: { a: 'heavy' } }, '- weights.a: must be number.'],
    [{ wrap: 'bag' }, '- wrap: must be one of ["paper","box"].'],
    [{ priority: 'High' }, '- priority: must be number.'],
    [{ priority: 2 }, '- priority: must be one of [1,3].'],
  ])('refuses %j', async (input, line) => {
    const { error } = await call(Form, schema, input, plan);
    expect(error).toContain(line);
  });

  it('accepts what the schema accepts', async () => {
    const { error, received } = await call(Form, schema, { note: 'n', weights: { a: 1 }, wrap: 'box', priority: 3 }, plan);
    expect(error).toBeUndefined();
    expect(received).toEqual({ note: 'n', weights: { a: 1 }, wrap: 'box', priority: 3 });
  });
});

describe('formats by their RFCs', () => {
  class Links {
    @Allow() callback?: string;
    @Allow() at?: string;
    @Allow() email?: string;
    @Allow() id?: string;
  }
  const schema = object({
    callback: { type: 'string', format: 'uri' },
    at: { type: 'string', format: 'date-time' },
    email: { type: 'string', format: 'email' },
    id: { type: 'string', format: 'uuid' },
  });

  it.each([
    { callback: 'http://localhost:3000/cb' },
    { callback: 'urn:isbn:0451450523' },
    { at: '2024-02-29T00:00:00Z' },
    { at: '2024-05-06T07:08:09.5-03:00' },
    { email: 'ana@example.com' },
    { id: '3f1c1a2e-8d4b-4c1e-9f2a-1b2c3d4e5f60' },
  ])('accepts %j', async (input) => {
    expect((await call(Links, schema, input)).error).toBeUndefined();
  });

  it.each([
    [{ callback: 'example.com/cb' }, 'an absolute URI'],
    [{ at: '2024-02-30T00:00:00Z' }, 'an RFC 3339 date-time'],
    [{ at: 'true' }, 'an RFC 3339 date-time'],
    [{ at: true }, 'must be string'],
    [{ at: '2024-05-06T07:08:09' }, 'an RFC 3339 date-time'],
    [{ email: 'ana@' }, 'an e-mail address'],
    [{ id: 'not-a-uuid' }, 'a UUID'],
  ])('refuses %j', async (input, expected) => {
    expect((await call(Links, schema, input)).error).toContain(expected);
  });
});

describe('keys named like Object.prototype members', () => {
  class Tags {
    @IsObject() counts!: Record<string, number>;
    @IsObject() meta!: { toString: string; valueOf: number };
  }
  const schema = object({
    counts: { type: 'object', additionalProperties: { type: 'number' } },
    meta: object({ toString: { type: 'string' }, valueOf: { type: 'number' } }, ['toString', 'valueOf']),
  }, ['counts', 'meta']);
  const plan: InstancePlan = { properties: { counts: { shape: 'Record' } }, shapes: { Record: { additional: 'json' } } };

  it('keeps every key of a record, on an object without a prototype', async () => {
    const counts = { toString: 1, valueOf: 2, hasOwnProperty: 3, isPrototypeOf: 4, constructor: 6, prototype: 7, plain: 5 };
    const { error, received } = await call(Tags, schema, { counts, meta: { toString: 's', valueOf: 1 } }, plan);
    expect(error).toBeUndefined();
    expect({ ...received.counts }).toEqual(counts);
    expect(Object.getPrototypeOf(received.counts)).toBeNull();
    expect(received.meta).toEqual({ toString: 's', valueOf: 1 });
  });
});

describe('conversions the plan names', () => {
  class Settings {
    @IsOptional() @IsIn([10, 20, 50]) limit: number = 20;
    @Allow() home?: URL;
    @IsOptional() @Matches(/^[a-z]+$/) tag?: string;
  }
  const schema = object({ limit: { type: 'integer', enum: [10, 20, 50] }, home: { type: 'string', format: 'uri' }, tag: { type: 'string' } });
  const plan: InstancePlan = { properties: { home: 'url' } };

  it('keeps a property default when the key is absent, and the value sent when it is present', async () => {
    expect((await call(Settings, schema, {}, plan)).received.limit).toBe(20);
    expect((await call(Settings, schema, { limit: 50 }, plan)).received.limit).toBe(50);
  });

  it('converts only the JSON type the plan expects: a number for a `Date | number` stays a number', async () => {
    class Due {
      @Allow() due!: Date | number;
    }
    const dueSchema = object({ due: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'number' }] } }, ['due']);
    const duePlan: InstancePlan = { properties: { due: 'date' } };
    expect((await call(Due, dueSchema, { due: 3 }, duePlan)).received.due).toBe(3);
    expect((await call(Due, dueSchema, { due: '2024-05-06T07:08:09Z' }, duePlan)).received.due).toBeInstanceOf(Date);
  });

  it('assigns each key to the instance, so a setter of the class receives the converted value', async () => {
    class Booking {
      #starts?: Date;
      /** Kept as the setter leaves it: the start of the hour. */
      @IsDate() set starts(value: Date) {
        this.#starts = new Date(Math.floor(value.getTime() / 3_600_000) * 3_600_000);
      }
      get starts(): Date {
        return this.#starts!;
      }
    }
    const bookingSchema = object({ starts: { type: 'string', format: 'date-time' } }, ['starts']);
    const { error, received } = await call(Booking, bookingSchema, { starts: '2024-05-06T07:08:09Z' }, { properties: { starts: 'date' } });
    expect(error).toBeUndefined();
    expect(received.starts.toISOString()).toBe('2024-05-06T07:00:00.000Z');
    expect(Object.getOwnPropertyNames(received)).toEqual([]);
  });

  it('turns a URI into a URL', async () => {
    const { received } = await call(Settings, schema, { home: 'https://example.com/a?b=1' }, plan);
    expect(received.home).toBeInstanceOf(URL);
    expect(received.home.href).toBe('https://example.com/a?b=1');
  });

  it('refuses, with a message, a URI the URL parser cannot read', async () => {
    const { error, received } = await call(Settings, schema, { home: 'http://example.com:99999/' }, plan);
    expect(error).toBe('Invalid input for probe:\n- "http://example.com:99999/" cannot be read as a URL; send another value.\nFix the input and try again.');
    expect(received).toBeUndefined();
  });

  it('reports class-validator failures in the same one-line economy', async () => {
    const { error } = await call(Settings, schema, { tag: 'ABC' }, plan);
    expect(error).toBe('Invalid input for probe:\n- tag: must match /^[a-z]+$/ regular expression. Got: "ABC"\nFix the input and try again.');
  });
});

describe('conversions inside arrays, tuples, records and plain objects', () => {
  class Booking {
    @Allow() days!: Date[];
    @Allow() window!: [Date, string];
    @Allow() slot!: { at: Date; room: string };
    @Allow() reminders!: Record<string, Date>;
    @Allow() notes!: string[];
  }
  const dateTime = { type: 'string', format: 'date-time' };
  const schema = object({
    days: { type: 'array', items: dateTime },
    window: { type: 'array', prefixItems: [dateTime, { type: 'string' }], items: false, minItems: 2, maxItems: 2 },
    slot: object({ at: dateTime, room: { type: 'string' } }, ['at', 'room']),
    reminders: { type: 'object', additionalProperties: dateTime },
    notes: { type: 'array', items: { type: 'string' } },
  });
  // What tools-codegen plans for these types: a shape with no class is a plain object type.
  const plan: InstancePlan = {
    properties: { days: { array: 'date' }, window: { tuple: ['date', 'json'] }, slot: { shape: 'Slot' }, reminders: { shape: 'Reminders' }, notes: { array: 'json' } },
    shapes: { Slot: { properties: { at: 'date' } }, Reminders: { additional: 'date' } },
  };
  const A = '2024-05-06T07:08:09Z';
  const B = '2024-05-07T08:09:10Z';

  it('hands the method a Date for every date-time the type holds, and the rest as sent', async () => {
    const input = { days: [A, B], window: [A, 'morning'], slot: { at: B, room: 'R2' }, reminders: { eve: A, toString: B }, notes: ['bring ID'] };
    const { error, received } = await call(Booking, schema, input, plan);
    expect(error).toBeUndefined();
    expect(received.days).toEqual([new Date(A), new Date(B)]);
    expect(received.window).toEqual([new Date(A), 'morning']);
    expect(received.slot).toEqual({ at: new Date(B), room: 'R2' });
    expect(Object.getPrototypeOf(received.slot)).toBe(Object.prototype);
    expect({ ...received.reminders }).toEqual({ eve: new Date(A), toString: new Date(B) });
    expect(received.notes).toEqual(['bring ID']);
  });

  it('answers a plan naming a shape it does not define as an internal error, and tells the developer to regenerate', async () => {
    const errors: unknown[][] = [];
    class Tools {
      @Tool({ name: 'probe', effect: 'read' })
      probe(@Input() value: object) {
        return value;
      }
    }
    const manifest = defineToolManifest([
      {
        provider: Tools,
        method: 'probe',
        definition: { name: 'probe', description: 'Probes validation.', input_schema: schema },
        effect: 'read',
        inputClass: Booking,
        parameters: [{ kind: 'input' }],
        instancePlan: { properties: { slot: { shape: 'Slot' } } },
      },
    ]);
    const logger = { error: (...args: unknown[]) => errors.push(args), warn: () => undefined };
    const container = new ToolContainer({ manifest, providers: [new Tools()], logger });
    const [answer] = await container.execute([toolUse('toolu_1', 'probe', { slot: { at: A, room: 'R2' } })]);
    expect(answer.is_error).toBe(true);
    expect(errors).toEqual([
      ['toolwright: tool probe (toolu_1) failed during validation:', new Error('instance plan: shape "Slot" is not defined; regenerate the manifest with tools-codegen.')],
    ]);
  });
});

describe('a strict tool is checked against the schema before keywords moved into its description', () => {
  class Reserve {
    @Allow() units!: number;
  }
  const sent = object({ units: { type: 'integer', description: 'Units to hold.\n\n{minimum: 1, maximum: 10}' } }, ['units']);
  const full = object({ units: { type: 'integer', description: 'Units to hold.', minimum: 1, maximum: 10 } }, ['units']);

  it('refuses what only the moved keywords forbid, naming the rule and the plain description', async () => {
    const { error } = await call(Reserve, sent, { units: 11 }, undefined, full);
    expect(error).toBe('Invalid input for probe:\n- units: must not be greater than 10. Expected: Units to hold. Got: 11\nFix the input and try again.');
  });
});

describe('schema errors, one line per field', () => {
  class Shipment {
    @Allow() to?: unknown;
    @Allow() items?: unknown;
  }
  const schema = object({
    to: { anyOf: [{ type: 'string', description: 'An address id.' }, ADDRESS_SCHEMA], description: 'Where to ship: an address id or an address.' },
    items: { type: 'array', items: object({ qty: { type: 'integer', minimum: 1 } }, ['qty']) },
    name: { type: 'string', description: 'Who receives it.' },
  }, ['name']);

  it('folds the branches of a failed anyOf into one line, names unknown and missing fields', async () => {
    const { error } = await call(Shipment, schema, { to: 5, items: [{ qty: 1 }, { qty: 0, extra: true }], more: 1 });
    expect(error).toBe([
      'Invalid input for probe:',
      '- name: required but missing. Expected: Who receives it.',
      '- more: unknown field; remove it',
      '- to: matches none of the allowed forms. Expected: Where to ship: an address id or an address. Got: 5',
      '- items[1].extra: unknown field; remove it',
      '- items[1].qty: must not be less than 1. Got: 0',
      'Fix the input and try again.',
    ].join('\n'));
  });
});
