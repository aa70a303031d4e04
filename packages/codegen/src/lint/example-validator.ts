import { schemaProblems } from '@toolwright/core/tooling';
import { plainJson, type JsonSchema } from '../schema/json-schema';

/** Checks `@example` inputs against the generated schema with the run time's own schema check. */
export class ExampleValidator {
  /** The reasons the example does not satisfy the schema, empty when it does. */
  problems(schema: JsonSchema, example: unknown): string[] {
    return schemaProblems(plainJson(schema), example);
  }
}
