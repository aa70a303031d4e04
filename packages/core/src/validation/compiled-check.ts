import type { ErrorObject } from 'ajv/dist/2020';
import { isDecimalMultiple } from './decimal-multiple';
import { keysOf } from './listed-keys';

/**
 * A tool's schema check compiled at build time: tools-codegen writes it as code (Ajv standalone)
 * next to the manifest, so the run time compiles nothing and loads no Ajv. Like Ajv's own
 * functions, it keeps the failures of its last call in `errors`.
 */
export interface CompiledInputCheck {
  (input: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * The identifier the generated checks module binds `compiledCheckRuntime` to; the compiled code
 * reaches every helper through it (see `standaloneChecks`).
 */
export const CHECK_RUNTIME_NAME = 'toolwrightChecks';

const parseConstant = (text: string): unknown => JSON.parse(text);

/**
 * What compiled checks call: the same functions the run time's Ajv uses, so a compiled check
 * decides exactly as the lazily compiled one. Each is loaded when a check module first reads it.
 * For the modules tools-codegen writes; not meant to be called directly.
 */
export const compiledCheckRuntime = {
  isDecimalMultiple,
  /** The keys a loop over a Record visits: `for…in`'s, from the limits walk's list when it made one. */
  keysOf,
  /**
   * The check `make` returns, made on its first call: importing a module of many checks then
   * builds none of their schemas and patterns, and a tool never called never pays for its own.
   * `constants` are JSON texts, parsed then and passed to `make` in order (the schema parts a
   * check's verbose errors point into): tools of one structure pass the same `make`, so a further
   * tool's first call runs code already compiled instead of compiling a function of its own.
   */
  lazy(make: (...constants: unknown[]) => CompiledInputCheck, ...constants: string[]): CompiledInputCheck {
    let made: CompiledInputCheck | undefined;
    const check: CompiledInputCheck = (input) => {
      made ??= make(...constants.map(parseConstant));
      const ok = made(input);
      check.errors = made.errors;
      return ok;
    };
    check.errors = null;
    return check;
  },
  /** String lengths in code points, as JSON Schema counts them. */
  get ucs2length(): (text: string) => number {
    return (require('ajv/dist/runtime/ucs2length') as typeof import('ajv/dist/runtime/ucs2length')).default;
  },
  /** Deep equality of JSON values (`enum`, `const`, `uniqueItems`). */
  get equal(): (a: unknown, b: unknown) => boolean {
    return (require('ajv/dist/runtime/equal') as { default: (a: unknown, b: unknown) => boolean }).default;
  },
  /** ajv-formats' formats in full mode, by their RFCs. */
  get formats(): Record<string, unknown> {
    return (require('ajv-formats/dist/formats') as typeof import('ajv-formats/dist/formats')).fullFormats;
  },
};
