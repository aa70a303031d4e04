import { generate } from '../src/generate';
import { makeTempProject } from './support/fixtures';

const DOC = `/**
   * Does one thing for the tests of the output schema.
   * Use it only in tests.
   * It changes nothing.
   */`;

const TOOLS = `import { Tool } from '@toolwright/core';

/** An order as the tools return it. */
export interface Order {
  numero: string;
  total: number;
  placed: Date;
  note?: string;
  lines: Array<{ sku: string; qty: number }>;
  parent: Order | null;
}

export class OutputTools {
  ${DOC}
  @Tool({ effect: 'read' })
  async promised(): Promise<Order> { throw new Error(); }

  ${DOC}
  @Tool({ effect: 'read' })
  inferred() { return { ok: true as const, count: 1 }; }

  ${DOC}
  @Tool({ effect: 'read' })
  text(): Promise<string> { return Promise.resolve(''); }

  ${DOC}
  @Tool({ effect: 'read' })
  list(): string[] { return []; }

  ${DOC}
  @Tool({ effect: 'read' })
  nothing(): void {}

  ${DOC}
  @Tool({ effect: 'read' })
  maybe(): Order | undefined { return undefined; }

  ${DOC}
  @Tool({ effect: 'read' })
  withCallback(): { run: () => void } { return { run: () => undefined }; }
}
`;

describe('outputSchema from the return type', () => {
  const project = makeTempProject({ 'src/output.tools.ts': TOOLS });
  afterAll(() => project.cleanup());
  const result = generate({ project: project.tsconfig, write: false });
  const schemaOf = (method: string) => result.tools.find((t) => t.method === method)?.outputSchema;

  it('unwraps Promise<T> and describes an object type, with open objects and recursive types through $defs', () => {
    expect(schemaOf('promised')).toEqual({
      type: 'object',
      properties: {
        numero: { type: 'string' },
        total: { type: 'number' },
        placed: { type: 'string', format: 'date-time' },
        note: { type: 'string' },
        lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'number' } }, required: ['sku', 'qty'] } },
        parent: { anyOf: [{ $ref: '#/$defs/Order' }, { type: 'null' }], description: 'An order as the tools return it.' },
      },
      required: ['numero', 'total', 'placed', 'lines', 'parent'],
      $defs: { Order: expect.objectContaining({ type: 'object', required: ['numero', 'total', 'placed', 'lines', 'parent'] }) },
    });
    expect(JSON.stringify(schemaOf('promised'))).not.toContain('additionalProperties');
  });

  it('describes an inferred object return type', () => {
    expect(schemaOf('inferred')).toEqual({
      type: 'object',
      properties: { ok: { type: 'boolean', enum: [true] }, count: { type: 'number' } },
      required: ['ok', 'count'],
    });
  });

  it('writes none for strings, arrays, void and unions: MCP structured content is an object', () => {
    for (const method of ['text', 'list', 'nothing', 'maybe']) expect(schemaOf(method)).toBeUndefined();
  });

  it('writes none for a return type JSON cannot carry, with a warning instead of an error', () => {
    expect(schemaOf('withCallback')).toBeUndefined();
    const warning = result.diagnostics.find((d) => d.path.includes('OutputTools.withCallback → return'));
    expect(warning).toMatchObject({ severity: 'warning', message: expect.stringMatching(/^no outputSchema for this return type \(.*function/) });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('emits it into the manifest entry, beside the definition', () => {
    expect(result.code).toMatch(/parameters: \[\],\n {4}outputSchema: \{\n {6}type: 'object',/);
    expect(result.code).not.toMatch(/definition: \{[^}]*outputSchema/);
  });
});
