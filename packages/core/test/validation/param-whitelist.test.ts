import 'reflect-metadata';
import { Allow, IsString, ValidateBy, ValidateNested, getMetadataStorage } from 'class-validator';
import { Input, Param, Tool, ToolContainer, defineToolManifest, type ToolManifestEntry } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';

// tools-codegen declares the properties of a @Param tool's input class bare; the container
// whitelists them when it is built, as `@Allow()` did at import. These classes are
// written as tools-codegen writes them (and as earlier versions did, with `@Allow()`).

type Schema = ToolManifestEntry['definition']['input_schema'];

class Address {
  @IsString()
  @ValidateBy({ name: 'hasNumber', validator: { validate: (v: unknown) => typeof v === 'string' && /\d/.test(v), defaultMessage: () => '$property must contain a house number' } })
  street!: string;
}

const SHIP_SCHEMA: Schema = {
  type: 'object',
  properties: {
    numero: { type: 'string' },
    address: { type: 'object', properties: { street: { type: 'string' } }, required: ['street'], additionalProperties: false },
    note: { type: 'string' },
  },
  required: ['numero', 'address'],
  additionalProperties: false,
};

const received: unknown[][] = [];

class ShipTools {
  @Tool({ name: 'ship', effect: 'write' })
  ship(@Param() numero: string, @Param() address: Address, @Param() note?: string) {
    received.push([numero, address, note]);
    return 'shipped';
  }
}

/** A container holding `ship` with `inputClass`; a new one each time, as an app may build several. */
function shipContainer(inputClass: new () => object): ToolContainer {
  const manifest = defineToolManifest([
    {
      provider: ShipTools,
      method: 'ship',
      definition: { name: 'ship', description: 'Ships an order.', input_schema: SHIP_SCHEMA },
      effect: 'write',
      inputClass,
      parameters: [
        { kind: 'param', property: 'numero' },
        { kind: 'param', property: 'address' },
        { kind: 'param', property: 'note' },
      ],
      instancePlan: { properties: { address: { shape: 'Address' } }, shapes: { Address: { class: Address } } },
    },
  ]);
  return new ToolContainer({ manifest, providers: [new ShipTools()] });
}

async function ship(container: ToolContainer, input: Record<string, unknown>) {
  const [answer] = await container.execute([toolUse('toolu_1', 'ship', input)]);
  return { text: String(answer.content), error: answer.is_error === true };
}

/** What class-validator holds for `inputClass`, as `property:type` entries. */
const metadataOf = (inputClass: Function) =>
  getMetadataStorage().getTargetValidationMetadatas(inputClass, '', true, false).map((m) => `${m.propertyName}:${m.type}`).sort();

describe('a @Param input class declared bare', () => {
  class ShipInput {
    numero!: string;
    @ValidateNested()
    address!: Address;
    note?: string;
  }

  beforeEach(() => (received.length = 0));

  it('beside a @ValidateNested() DTO: the siblings are accepted, the DTO is judged by its decorators', async () => {
    const container = shipContainer(ShipInput);
    expect(await ship(container, { numero: 'A-1', address: { street: 'Rua Augusta 12' }, note: 'fragile' })).toEqual({ text: 'shipped', error: false });
    expect(received).toEqual([['A-1', expect.any(Address), 'fragile']]);
    const refused = await ship(container, { numero: 'A-1', address: { street: 'Rua Augusta' } });
    expect(refused.error).toBe(true);
    expect(refused.text).toContain('- address.street: must contain a house number.');
    expect(refused.text).not.toMatch(/numero|note/);
  });

  it('is whitelisted once, whatever the number of containers built from the manifest', async () => {
    for (let i = 0; i < 3; i++) expect((await ship(shipContainer(ShipInput), { numero: 'A-1', address: { street: 'Rua 1' } })).error).toBe(false);
    expect(metadataOf(ShipInput)).toEqual(['address:nestedValidation', 'note:whitelistValidation', 'numero:whitelistValidation']);
  });
});

describe('a @Param input class generated with @Allow() (an earlier tools-codegen)', () => {
  class ShipInput {
    @Allow()
    numero!: string;

    @ValidateNested()
    address!: Address;

    @Allow()
    note?: string;
  }

  it('validates as before, and gets nothing registered twice', async () => {
    const before = metadataOf(ShipInput);
    for (let i = 0; i < 2; i++) expect(await ship(shipContainer(ShipInput), { numero: 'A-1', address: { street: 'Rua 1' }, note: 'x' })).toEqual({ text: 'shipped', error: false });
    expect((await ship(shipContainer(ShipInput), { numero: 'A-1', address: { street: 'Rua' } })).text).toContain('- address.street: must contain a house number.');
    expect(metadataOf(ShipInput)).toEqual(before);
  });
});

describe('an @Input DTO', () => {
  class Customer {
    @IsString() name!: string;
    nickname?: string;
  }

  class CustomerTools {
    @Tool({ name: 'register', effect: 'write' })
    register(@Input() customer: Customer) {
      return customer.name;
    }
  }

  it('with an undecorated property is still refused: the whitelist is the user\'s', async () => {
    const manifest = defineToolManifest([
      {
        provider: CustomerTools,
        method: 'register',
        definition: {
          name: 'register',
          description: 'Registers a customer.',
          input_schema: { type: 'object', properties: { name: { type: 'string' }, nickname: { type: 'string' } }, required: ['name'], additionalProperties: false },
        },
        effect: 'write',
        inputClass: Customer,
        parameters: [{ kind: 'input' }],
      },
    ]);
    const container = new ToolContainer({ manifest, providers: [new CustomerTools()] });
    const [answer] = await container.execute([toolUse('toolu_1', 'register', { name: 'Ana', nickname: 'Aninha' })]);
    expect(answer.is_error).toBe(true);
    expect(String(answer.content)).toContain('nickname');
    expect(metadataOf(Customer)).toEqual(['name:customValidation']);
  });
});

describe('a @Param input class the schema check fully decides (closed schema, no decorator)', () => {
  class LabelInput {
    numero!: string;
    note?: string;
  }

  class LabelTools {
    @Tool({ name: 'label', effect: 'read' })
    label(@Param() numero: string, @Param() note?: string) {
      return `${numero}${note ?? ''}`;
    }
  }

  const labelContainer = () =>
    new ToolContainer({
      manifest: defineToolManifest([
        {
          provider: LabelTools,
          method: 'label',
          definition: {
            name: 'label',
            description: 'Prints a label.',
            input_schema: { type: 'object', properties: { numero: { type: 'string' }, note: { type: 'string' } }, required: ['numero'], additionalProperties: false },
          },
          effect: 'read',
          inputClass: LabelInput,
          parameters: [
            { kind: 'param', property: 'numero' },
            { kind: 'param', property: 'note' },
          ],
        },
      ]),
      providers: [new LabelTools()],
    });

  afterEach(() => jest.restoreAllMocks());

  it('gets nothing registered in class-validator: the user\'s metadata stays as the user wrote it', async () => {
    const [answer] = await labelContainer().execute([toolUse('toolu_1', 'label', { numero: 'A-1', note: '!' })]);
    expect(answer).toMatchObject({ content: 'A-1!' });
    expect(metadataOf(LabelInput)).toEqual([]);
  });

  // A call alone takes the container's direct path, calls in a batch the general one: both read
  // the preparation the container made when it was built.
  it.each([
    ['alone', 1],
    ['in a batch', 2],
  ])('is prepared when the container is built, once: no call, called %s, reads class-validator metadata', async (_how, perBatch) => {
    const lookups = jest.spyOn(getMetadataStorage(), 'getTargetValidationMetadatas');
    const container = labelContainer();
    expect(lookups).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3; i++) {
      const answers = await container.execute(Array.from({ length: perBatch }, (_, j) => toolUse(`toolu_${i}_${j}`, 'label', { numero: `A-${i}` })));
      expect(answers.map((a) => a.content)).toEqual(Array(perBatch).fill(`A-${i}`));
    }
    expect(lookups).toHaveBeenCalledTimes(1);
  });
});
