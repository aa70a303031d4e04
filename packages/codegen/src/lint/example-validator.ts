import type Ajv2020 from 'ajv/dist/2020';
import { FORMAT_CHECKS, KNOWN_FORMATS } from '../schema/formats';
import type { JsonSchema } from '../schema/json-schema';

/** Checks `@example` inputs against the generated schema, the way the API reads it. */
export class ExampleValidator {
  private ajv: Ajv2020 | undefined;

  /** The reasons the example does not satisfy the schema, empty when it does. */
  problems(schema: JsonSchema, example: unknown): string[] {
    const validate = this.validator().compile(schema);
    if (validate(example)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` "${String(e.params.additionalProperty)}"` : ''}`);
  }

  /** Loaded on the first `@example`: most projects have none, and Ajv takes a while to load. */
  private validator(): Ajv2020 {
    if (!this.ajv) {
      const { default: Ajv } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
      this.ajv = new Ajv({ allErrors: true, strict: false });
      for (const format of KNOWN_FORMATS) this.ajv.addFormat(format, FORMAT_CHECKS[format] ?? true);
    }
    return this.ajv;
  }
}
