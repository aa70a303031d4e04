// For the modules tools-codegen writes, not for hand-written code: may change with the generator.
export { Check, matchesSchema, toDate } from '../validation/schema-constraints';
