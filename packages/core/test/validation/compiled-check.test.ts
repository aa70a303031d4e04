import 'reflect-metadata';
import { Param, Tool, ToolContainer, compiledCheckRuntime, defineToolManifest, type CompiledInputCheck, type ToolManifestEntry } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';

// A manifest from tools-codegen carries each tool's check compiled at build time: the run time
// must then load no Ajv at all (the first call of a process would pay for loading and compiling
// it). Loading Ajv's entry point fails in this file, so a call that reached it would answer as an
// internal error.
let mockAjvLoads = 0;
jest.mock('ajv/dist/2020', () => {
  mockAjvLoads++;
  throw new Error('Ajv was loaded');
});

const NUMERO = { type: 'string', pattern: '^A-\\d{4}$', description: 'The order number, like A-1234.' };
const SCHEMA: ToolManifestEntry['definition']['input_schema'] = {
  type: 'object',
  properties: { numero: NUMERO },
  required: ['numero'],
  additionalProperties: false,
};

/** What Ajv's standalone code does for SCHEMA, written out: a verdict, and the failures in `errors`. */
const compiled: CompiledInputCheck = Object.assign(
  (input: unknown): boolean => {
    const numero = (input as { numero?: unknown }).numero;
    const ok = typeof numero === 'string' && /^A-\d{4}$/u.test(numero) && Object.keys(input as object).length === 1;
    compiled.errors = ok ? null : [{
      instancePath: '/numero', schemaPath: '#/properties/numero/pattern', keyword: 'pattern', params: { pattern: '^A-\\d{4}$' },
      message: 'must match pattern', schema: '^A-\\d{4}$', parentSchema: NUMERO, data: numero,
    }];
    return ok;
  },
  { errors: null },
);

class Orders {
  @Tool({ name: 'buscar_pedido', effect: 'read' })
  async buscarPedido(@Param() numero: string) {
    return { numero };
  }
}

class BuscarPedidoInput {
  numero!: string;
}

function container(inputCheck?: CompiledInputCheck): ToolContainer {
  const manifest = defineToolManifest([{
    provider: Orders,
    method: 'buscarPedido',
    definition: { name: 'buscar_pedido', description: 'Looks an order up.', input_schema: SCHEMA },
    effect: 'read',
    inputClass: BuscarPedidoInput,
    parameters: [{ kind: 'param', property: 'numero' }],
    ...(inputCheck ? { inputCheck } : {}),
  }]);
  return new ToolContainer({ manifest, providers: [new Orders()], logger: { error: () => undefined, warn: () => undefined } });
}

describe('a manifest with compiled checks', () => {
  it('answers valid input through the compiled check, without loading Ajv', async () => {
    const [answer] = await container(compiled).execute([toolUse('toolu_1', 'buscar_pedido', { numero: 'A-1001' })]);
    expect(answer).toMatchObject({ tool_use_id: 'toolu_1', content: '{"numero":"A-1001"}' });
    expect(answer.is_error).toBeUndefined();
  });

  it("refuses invalid input with the model's message built from the compiled check's errors", async () => {
    const [answer] = await container(compiled).execute([toolUse('toolu_2', 'buscar_pedido', { numero: '1001' })]);
    expect(answer.is_error).toBe(true);
    expect(answer.content).toBe(
      'Invalid input for buscar_pedido:\n- numero: must match /^A-\\d{4}$/. Expected: The order number, like A-1234. Got: "1001"\nFix the input and try again.',
    );
  });

  it('is refused at start-up when an entry names something else than a function as its check', () => {
    expect(() => container({} as CompiledInputCheck)).toThrow(/manifest inputCheck is object, not the compiled check function/);
  });
});

describe('a manifest without compiled checks (an older tools-codegen, or written by hand)', () => {
  it('is checked by Ajv, compiled on the first call: here, where Ajv cannot load, the call fails alone', async () => {
    const [answer] = await container().execute([toolUse('toolu_3', 'buscar_pedido', { numero: 'A-1001' })]);
    expect(answer).toMatchObject({ is_error: true, content: expect.stringMatching(/^Internal error/) });
  });

  // A container prepares its tools when it is built; an application that never calls a tool of
  // an older manifest must not pay for loading Ajv at start-up.
  it('loads no Ajv when the container is built, only on the first call', async () => {
    const before = mockAjvLoads;
    const built = container();
    expect(mockAjvLoads).toBe(before);
    await built.execute([toolUse('toolu_4', 'buscar_pedido', { numero: 'A-1001' })]);
    expect(mockAjvLoads).toBeGreaterThan(before);
  });
});

describe('compiledCheckRuntime.lazy, as the checks module calls it', () => {
  /** A factory as tools-codegen shares it between tools of one structure: the check reads its constants only to fail. */
  const factory = jest.fn((schema: { required: string[] }, pattern: string): CompiledInputCheck => {
    const check: CompiledInputCheck = (input) => {
      const ok = typeof (input as { numero?: unknown }).numero === 'string';
      check.errors = ok ? null : [{ instancePath: '', schemaPath: '#/required', keyword: 'required', params: { pattern }, schema: schema.required, parentSchema: schema }];
      return ok;
    };
    return check;
  });

  beforeEach(() => factory.mockClear());

  it('makes the check on its first call, from each constant parsed, in order, and only once', () => {
    const check = compiledCheckRuntime.lazy(factory as (...constants: unknown[]) => CompiledInputCheck, '{"required":["numero"]}', '"^A-\\\\d{4}$"');
    expect(factory).not.toHaveBeenCalled();
    expect(check.errors).toBeNull();
    expect(check({})).toBe(false);
    expect(factory).toHaveBeenCalledWith({ required: ['numero'] }, '^A-\\d{4}$');
    expect(check.errors).toEqual([expect.objectContaining({ schema: ['numero'], parentSchema: { required: ['numero'] }, params: { pattern: '^A-\\d{4}$' } })]);
    expect(check({ numero: 'A-1001' })).toBe(true);
    expect(check.errors).toBeNull();
    expect(factory).toHaveBeenCalledTimes(1);
  });

  it('gives two tools of one factory each its own constants and its own errors', () => {
    const first = compiledCheckRuntime.lazy(factory as (...constants: unknown[]) => CompiledInputCheck, '{"required":["numero"]}', '"a"');
    const second = compiledCheckRuntime.lazy(factory as (...constants: unknown[]) => CompiledInputCheck, '{"required":["pedido"]}', '"b"');
    first({});
    second({});
    expect(first.errors?.[0]).toMatchObject({ parentSchema: { required: ['numero'] }, params: { pattern: 'a' } });
    expect(second.errors?.[0]).toMatchObject({ parentSchema: { required: ['pedido'] }, params: { pattern: 'b' } });
  });

  // An older tools-codegen wrote a function of each tool's own that made its check.
  it('still takes the maker an older checks module wrote, with no constants', () => {
    const check = compiledCheckRuntime.lazy(() => factory({ required: ['numero'] }, 'x'));
    expect(check({ numero: 'A-1001' })).toBe(true);
    expect(check({})).toBe(false);
    expect(factory).toHaveBeenCalledTimes(1);
  });
});
