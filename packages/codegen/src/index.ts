export { generate, Generator, type GenerateOptions, type GenerateResult } from './generate';
export type { Diagnostic, Severity } from './lint/diagnostic';
export { formatDiagnostic } from './lint/format-diagnostics';
export type { ToolModel, ToolDefinition, ToolInput, ParameterBinding } from './model/tool-model';
export type { ImportExtension } from './project/import-extension';
export { ProjectConfigError, type ConfigLocation } from './project/tsconfig';
export type { JsonSchema } from './schema/json-schema';
