// `@toolwright/core/tooling`: what build tools (tools-codegen) share with the run time, without
// loading it. The main entry brings the container, class-validator and the loops; a codegen run
// needs none of them, only the naming rules and the schema check its lints must agree with.
export { TOOL_NAME_PATTERN, deriveToolName } from './manifest/tool-name';
export { schemaProblems, standaloneCheck } from './validation/schema-check';
export { CHECK_RUNTIME_NAME } from './validation/compiled-check';
export { FORBIDDEN_KEY } from './validation/forbidden-key';
