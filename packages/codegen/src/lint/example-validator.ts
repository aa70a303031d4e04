import Ajv2020 from 'ajv/dist/2020';
import { FORMAT_CHECKS, KNOWN_FORMATS } from '../schema/formats';
import type { JsonSchema } from '../schema/json-schema';

/** Checks `@example` inputs against the generated schema, the way the API reads it. */
export class ExampleValidator {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false });

  constructor() {
    for (const format of KNOWN_FORMATS) this.ajv.addFormat(format, FORMAT_CHECKS[format] ?? true);
  }

  /** The reasons the example does not satisfy the schema, empty when it does. */
  problems(schema: JsonSchema, example: unknown): string[] {
    const validate = this.ajv.compile(schema);
    if (validate(example)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` "${String(e.params.additionalProperty)}"` : ''}`);
  }
}
