import type Ajv2020 from 'ajv/dist/2020';
import type { CodeOptions, ValidateFunction } from 'ajv/dist/2020';
import { isDecimalMultiple } from './decimal-multiple';
import { describeSchemaErrors } from './describe-errors';
import { patternCode } from './pattern-code';
import { CHECK_RUNTIME_NAME, type compiledCheckRuntime } from './compiled-check';
import { keysOf } from './listed-keys';

type AjvModule = typeof import('ajv/dist/2020');

/**
 * The Ajv every check is made with, at run time and at build time alike: JSON Schema 2020-12,
 * formats by their RFCs (ajv-formats' default, full mode: `schema-check.test.ts` pins them),
 * lengths in code points, `u` patterns, and `multipleOf` exact on decimals. `allErrors` so the
 * model fixes every field in one retry; `verbose` so a message can name the failing keyword's
 * value. The schemas come from tools-codegen, which wrote them as 2020-12; checking each against
 * the meta-schema would cost most of the first compile. `code` is given only to write checks
 * out as source (`standaloneCheck`).
 */
function makeAjv(code?: CodeOptions): Ajv2020 {
  // Loaded on first use, not at import: an application that never compiles a check never pays for it.
  const ajvModule = require('ajv/dist/2020') as AjvModule;
  const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
  const { _ } = ajvModule;
  const runtime = new ajvModule.Name(CHECK_RUNTIME_NAME);
  // A check Ajv compiles at run time is made by `new Function(self, scope, source)`, `self` this
  // Ajv: the loops over a Record's keys reach `keysOf` through it.
  const instance = new ajvModule.default({
    allErrors: true,
    verbose: true,
    strict: false,
    logger: false,
    unicodeRegExp: true,
    validateSchema: false,
    code: { ...code, process: (source) => keysListedOnce(source, `self.${SELF_KEYS_OF}`) },
  });
  Object.defineProperty(instance, SELF_KEYS_OF, { value: keysOf });
  addFormats(instance);
  instance.removeKeyword('multipleOf');
  instance.addKeyword({
    keyword: 'multipleOf',
    type: 'number',
    schemaType: 'number',
    // As code, not as a `validate` function: a standalone check can then call the same function
    // through the runtime object, where Ajv cannot write a closure out as source.
    code(cxt) {
      const multiple = cxt.gen.scopeValue('func', { ref: isDecimalMultiple, code: _`${runtime}.isDecimalMultiple` });
      cxt.fail(_`!${multiple}(${cxt.data}, ${cxt.schema})`);
    },
  });
  return instance;
}

/** The name the run time's Ajv holds `keysOf` under, for the checks it compiles. */
const SELF_KEYS_OF = 'toolwrightKeysOf';

/**
 * How Ajv starts a loop over a Record's values (`additionalProperties` with a schema): the key,
 * then the value read by it, into a variable or straight into the check of a `$ref`.
 */
const RECORD_LOOP = /for\(const (key\d+) in (data\d*)\)\{(?=let data\d+ = \2\[\1\];|if\(!\(\w+(?:\.validate)?\(\2\[\1\], )/g;

/**
 * `source` with each loop over a Record's values taking its keys from `keysOf` (through
 * `keysOfName`): the same keys in the same order as `for…in`, without listing again a large
 * object the limits walk listed (see `listed-keys`). Other loops over keys (an object that
 * refuses unknown keys, small when valid) stay `for…in`, which makes no array.
 */
function keysListedOnce(source: string, keysOfName: string): string {
  return source.replace(RECORD_LOOP, (_loop, key: string, data: string) => `for(const ${key} of ${keysOfName}(${data})){`);
}

let shared: Ajv2020 | undefined;

/**
 * The tool's schema as a check; compiled once per schema object, on its first use (Ajv keeps
 * what it compiled by the schema object and hands the same function back).
 */
export function schemaCheck(schema: object): ValidateFunction {
  return (shared ??= makeAjv()).compile(schema);
}

/**
 * Why `value` fails `schema` under the run time's own check, one line per field as the model
 * would read them; empty when it passes. For tools that must agree with the run time (the
 * `@example` lint of tools-codegen).
 */
export function schemaProblems(schema: object, value: unknown): string[] {
  const check = schemaCheck(schema);
  return check(value) ? [] : describeSchemaErrors(check.errors ?? [], schema, value).map((line) => line.slice('- '.length));
}

/** The helpers Ajv's standalone code requires from its own package, by what `compiledCheckRuntime` calls them. */
const RUNTIME_HELPERS: Readonly<Record<string, keyof typeof compiledCheckRuntime>> = {
  'require("ajv/dist/runtime/ucs2length").default': 'ucs2length',
  'require("ajv/dist/runtime/equal").default': 'equal',
};

/** How Ajv's standalone code makes a pattern: `new RegExp("<source as a JSON string>", "u")`. */
const AJV_PATTERN = /new RegExp\(("(?:[^"\\]|\\.)*"), "u"\)/g;

/**
 * The check of `schema` as a JavaScript function expression that makes it, compiled with the run time's Ajv
 * configuration (Ajv standalone code) by an Ajv of its own, so the same schema always yields the
 * same text whatever was compiled before it. The expression reaches every helper through the
 * identifier `CHECK_RUNTIME_NAME`, which the enclosing module must bind to
 * `compiledCheckRuntime`. Throws when the schema needs a helper the runtime object lacks, which
 * the schemas tools-codegen writes never do.
 */
export function standaloneCheck(schema: object): string {
  const { _, Name } = require('ajv/dist/2020') as AjvModule;
  const ajv = makeAjv({ source: true, esm: true, formats: _`${new Name(CHECK_RUNTIME_NAME)}.formats` });
  const { default: standaloneCode } = require('ajv/dist/standalone') as typeof import('ajv/dist/standalone');
  // A copy: Ajv keeps what it compiled, and the caller's object must stay the caller's.
  ajv.addSchema(JSON.parse(JSON.stringify(schema)) as object, 'check');
  let code = standaloneCode(ajv, { check: 'check' });
  for (const [required, helper] of Object.entries(RUNTIME_HELPERS)) code = code.split(required).join(`${CHECK_RUNTIME_NAME}.${helper}`);
  code = keysListedOnce(code, `${CHECK_RUNTIME_NAME}.keysOf`);
  code = code.replace(AJV_PATTERN, (made: string, source: string) => patternCode(JSON.parse(source) as string, 'u') ?? made);
  const leftover = /require\([^)]*\)/.exec(code);
  if (leftover) throw new Error(`standaloneCheck: the compiled check needs ${leftover[0]}, which compiledCheckRuntime does not provide.`);
  // Ajv's standalone code for one named check starts with its export: `"use strict";export const check = validate0;`.
  const exported = /^"use strict";export const check = (\w+);/.exec(code);
  if (!exported) throw new Error('standaloneCheck: Ajv\'s standalone code does not start with the export it was asked for.');
  // Its own scope, so the names Ajv gives its constants and functions cannot meet another check's.
  return `() => {${code.slice(exported[0].length)}return ${exported[1]};}`;
}
