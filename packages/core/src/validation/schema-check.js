"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.schemaCheck = schemaCheck;
exports.schemaProblems = schemaProblems;
const decimal_multiple_1 = require("./decimal-multiple");
const describe_errors_1 = require("./describe-errors");
let shared;
/**
 * One Ajv for every tool, made on the first call that needs it: JSON Schema 2020-12, formats
 * by their RFCs (ajv-formats, full mode), lengths in code points, `u` patterns, and `multipleOf`
 * exact on decimals. `allErrors` so the model fixes every field in one retry; `verbose` so a
 * message can name the failing keyword's value.
 */
function ajv() {
    if (shared)
        return shared;
    // Loaded on the first call, not at import: an application that never calls a tool never pays for it.
    const { default: Ajv } = require('ajv/dist/2020');
    const { default: addFormats } = require('ajv-formats');
    const instance = new Ajv({ allErrors: true, verbose: true, strict: false, logger: false, unicodeRegExp: true });
    addFormats(instance, { mode: 'full' });
    instance.removeKeyword('multipleOf');
    instance.addKeyword({
        keyword: 'multipleOf',
        type: 'number',
        schemaType: 'number',
        errors: false,
        validate: (divisor, value) => (0, decimal_multiple_1.isDecimalMultiple)(value, divisor),
    });
    shared = instance;
    return instance;
}
const compiled = new WeakMap();
/** The tool's schema as a check; compiled once per schema object, on its first use. */
function schemaCheck(schema) {
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
function schemaProblems(schema, value) {
    const check = schemaCheck(schema);
    return check(value) ? [] : (0, describe_errors_1.describeSchemaErrors)(check.errors ?? [], schema, value).map((line) => line.replace(/^- /, ''));
}
