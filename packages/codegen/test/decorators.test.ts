import * as path from 'node:path';
import { generate, type GenerateResult } from '../src/generate';
import { makeTempProject } from './support/fixtures';

// What the codegen says about class-validator and class-transformer decorators on DTOs: the
// ones that contradict the type (errors), the ones stricter than any schema keyword (warnings,
// with the rule stated in the description) and the ones the instance builder does not apply.

const DTO = `import { Input, Tool } from '@toolwright/core';
import { Transform, Type } from 'class-transformer';
import { Allow, IsArray, IsDateString, IsString, IsUrl, ValidateBy, ValidateNested } from 'class-validator';

/** Lower-case words joined by dashes, like summer-sale */
export function IsSlug(): PropertyDecorator {
  return ValidateBy({ name: 'isSlug', validator: { validate: (value: unknown) => typeof value === 'string' } });
}

export class Inner {
  @IsString() name!: string;
}

export class Other {
  @IsString() label!: string;
}

export class Dto {
  /** The inner part. */
  @ValidateNested() @Type(() => Other) inner!: Inner;
  /** A count. */
  @ValidateNested() count!: number;
  /** When. */
  @IsDateString() when!: Date;
  /** The site. */
  @IsUrl({ require_tld: false, protocols: ['https'] }) site!: string;
  /** The campaign. */
  @IsSlug() slug!: string;
  /** Raw text. */
  @Transform(({ value }) => value) @IsString() raw!: string;
  /** The parts. */
  @IsArray() parts!: Inner[];
  /** A time, or a count of days. */
  @Allow() due!: Date | number;
  /** A time, or a word for one. */
  @Allow() when2!: Date | string;
  /** More parts. */
  @IsArray() @ValidateNested({ each: true }) more!: Parts;
  /** An id. */
  @IsString() id!: string & { __brand: 'Id' };
}

export interface Parts extends Array<Inner> {}

export class Tools {
  /**
   * Takes a DTO. Use it in tests only. It does nothing.
   */
  @Tool()
  take(@Input() input: Dto): string {
    return 'ok';
  }
}
`;

describe('decorators on DTOs', () => {
  let result: GenerateResult;
  let file: string;
  const project = makeTempProject({ 'src/dto.tools.ts': DTO });

  beforeAll(() => {
    file = path.join(project.dir, 'src', 'dto.tools.ts');
    result = generate({ project: project.tsconfig, write: false });
  });

  afterAll(() => project.cleanup());

  const at = (line: number, column: number, severity: 'error' | 'warning', property: string, message: string) =>
    expect.objectContaining({ file, line, column, severity, path: `Tools.take → input → ${property}`, message: expect.stringContaining(message) });

  it('a decorator that contradicts the type is an error at its file:line:col', () => {
    expect(result.diagnostics).toEqual(expect.arrayContaining([
      at(20, 21, 'error', 'inner', '@Type(() => Other) disagrees with the type Inner; toolwright builds Inner from the type'),
      at(22, 3, 'error', 'count', '@ValidateNested() on count: number is not an object'),
      at(24, 3, 'error', 'when', '@IsDateString() checks text, but the method receives when as a Date'),
    ]));
  });

  it('a decorator stricter than the schema is a warning, and its rule joins the description', () => {
    expect(result.diagnostics).toEqual(expect.arrayContaining([
      at(26, 3, 'warning', 'site', '@IsUrl() is stricter than any JSON Schema keyword (a web URL: scheme https; no underscore in the host; at most 2084 characters)'),
      at(28, 3, 'warning', 'slug', '@IsSlug() is stricter than any JSON Schema keyword (Lower-case words joined by dashes, like summer-sale)'),
    ]));
    const properties = result.tools[0].definition.input_schema.properties as Record<string, { description?: string }>;
    expect(properties.site.description).toBe('The site. Also: a web URL: scheme https; no underscore in the host; at most 2084 characters.');
    expect(properties.slug.description).toBe('The campaign. Also: Lower-case words joined by dashes, like summer-sale.');
  });

  it('class-transformer decorators the builder does not apply, and nested classes without @ValidateNested, are warnings', () => {
    expect(result.diagnostics).toEqual(expect.arrayContaining([
      at(30, 3, 'warning', 'raw', '@Transform() is not applied'),
      at(32, 3, 'warning', 'parts', 'Inner[] is a class whose class-validator decorators only run with @ValidateNested()'),
    ]));
  });

  it('a union converts by JSON type; members that arrive as the same JSON type are kept as sent, with a warning', () => {
    expect(result.diagnostics).toEqual(expect.arrayContaining([
      at(36, 3, 'warning', 'when2', 'the members of string | Date arrive as the same JSON type'),
    ]));
  });

  it('plans the instance from the types, not from @Type; a branded primitive is kept as sent, an array-like is an array', () => {
    expect(result.tools[0].instancePlan).toEqual({
      properties: { inner: { shape: 'Inner' }, when: 'date', parts: { array: { shape: 'Inner' } }, due: 'date', more: { array: { shape: 'Inner' } } },
      shapes: { Inner: { class: { className: 'Inner', file } } },
    });
  });
});
