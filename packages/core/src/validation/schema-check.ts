import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { isDecimalMultiple } from './decimal-multiple';

let shared: Ajv2020 | undefined;

/**
 * One Ajv for every tool, made on the first call that needs it: JSON Schema 2020-12, formats
 * by their RFCs (ajv-formats, full mode), lengths in code points, `u` patterns, and `multipleOf`
 * exact on decimals. `allErrors` so the model fixes every field in one retry; `verbose` so a
 * message can name the failing keyword's value.
 */
function ajv(): Ajv2020 {
  if (shared) return shared;
  const instance = new Ajv2020({ allErrors: true, verbose: true, strict: false, logger: false, unicodeRegExp: true });
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

export type SchemaError = ErrorObject;
