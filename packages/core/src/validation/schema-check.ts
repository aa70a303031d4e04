import type Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv/dist/2020';
import { isDecimalMultiple } from './decimal-multiple';
import { describeSchemaErrors } from './describe-errors';

let shared: Ajv2020 | undefined;

/**
 * One Ajv for every tool, made on the first call that needs it: JSON Schema 2020-12, formats
 * by their RFCs (ajv-formats, full mode), lengths in code points, `u` patterns, and `multipleOf`
 * exact on decimals. `allErrors` so the model fixes every field in one retry; `verbose` so a
 * message can name the failing keyword's value. The schemas come from tools-codegen, which wrote
 * them as 2020-12; checking each against the meta-schema would cost most of the first compile.
 */
function ajv(): Ajv2020 {
  if (shared) return shared;
  // Loaded on the first call, not at import: an application that never calls a tool never pays for it.
  const { default: Ajv } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
  const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
  const instance = new Ajv({ allErrors: true, verbose: true, strict: false, logger: false, unicodeRegExp: true, validateSchema: false });
  addFormats(instance, { mode: 'full' });
  instance.removeKeyword('multipleOf');
  instance.addKeyword({
    keyword: 'multipleOf',
    type: 'number',
    schemaType: 'number',
    errors: false,
    validate: (divisor: number, value: number) => isDecimalMultiple(value, divisor),
  });
  shared = instance;
  return instance;
}

const compiled = new WeakMap<object, ValidateFunction>();

/** The tool's schema as a check; compiled once per schema object, on its first use. */
export function schemaCheck(schema: object): ValidateFunction {
  let check = compiled.get(schema);
  if (!check) {
    check = ajv().compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/**
 * Why `value` fails `schema` under the run time's own check, one line per field as the model
 * would read them; empty when it passes. For tools that must agree with the run time (the
 * `@example` lint of tools-codegen).
 */
export function schemaProblems(schema: object, value: unknown): string[] {
  const check = schemaCheck(schema);
  return check(value) ? [] : describeSchemaErrors(check.errors ?? [], schema, value).map((line) => line.replace(/^- /, ''));
}
