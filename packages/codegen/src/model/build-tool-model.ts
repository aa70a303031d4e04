import { Node, type ClassDeclaration, type ParameterDeclaration } from 'ts-morph';
import { FORBIDDEN_KEY, TOOL_NAME_PATTERN, deriveToolName } from '@toolwright/core/tooling';
import { readDocComment, type DocComment } from '../jsdoc/read-jsdoc';
import type { Diagnostics } from '../lint/diagnostic';
import { lineAndColumnOf } from '../lint/position';
import type { ExampleValidator } from '../lint/example-validator';
import type { ScannedParameter, ScannedTool } from '../scan/find-tools';
import { isRegexValue, type LiteralValue } from '../scan/literal-value';
import { KNOWN_FORMATS, patternProblem } from '../schema/formats';
import { orderKeys, plainJson, type JsonSchema } from '../schema/json-schema';
import { applyKeywords, type Keyword } from '../schema/keywords';
import { outputSchemaOf } from '../schema/output-schema';
import { toStrictSubset } from '../schema/strict-subset';
import { FORBIDDEN_KEY_MESSAGE, type SchemaBuilder } from '../schema/type-to-schema';
import { apiFeatureFields, withKeywords } from './api-features';
import { classImportProblem } from './class-import';
import { InstancePlanner, type ParamPlanSite } from './instance-plan';
import { foldRuleNotes } from '../validators/rule-notes';
import { readDecoratorOptions } from './read-options';
import type { InstancePlanModel, ParameterBinding, ToolDefinition, ToolInput, ToolModel } from './tool-model';

export interface ModelContext {
  builder: SchemaBuilder;
  diagnostics: Diagnostics;
  examples: ExampleValidator;
}

const TOOL_OPTION_KEYS = ['name', 'effect', 'strict', 'cacheControl', 'callers', 'deferLoading', 'eagerInputStreaming'];
const PARAM_OPTION_KEYS = ['name', 'description', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'format', 'enum', 'optional'];
const MIN_SENTENCES = 3;

/** One `@Tool` method → its definition, input schema and parameter mapping, with diagnostics. */
export function buildToolModel(tool: ScannedTool, context: ModelContext): ToolModel | undefined {
  const { diagnostics } = context;
  const where = `${tool.className}.${tool.methodName}`;
  const path = [where];
  checkExported(tool.classDeclaration, tool.className, path, diagnostics);
  const options = readDecoratorOptions(tool.toolDecorator, TOOL_OPTION_KEYS, diagnostics, path);
  const prefix = tool.groupDecorator ? readDecoratorOptions(tool.groupDecorator, ['prefix'], diagnostics, path).prefix : undefined;
  const name = typeof options.name === 'string' ? options.name : deriveToolName(tool.methodName, typeof prefix === 'string' ? prefix : undefined);
  if (!TOOL_NAME_PATTERN.test(name)) {
    diagnostics.error(tool.toolDecorator, path, `tool name "${name}" does not match ${TOOL_NAME_PATTERN} (letters, digits, "_" and "-", at most 128); set @Tool({ name }) to a valid name.`);
  }
  if (options.effect !== undefined && options.effect !== 'read' && options.effect !== 'write') {
    diagnostics.error(tool.toolDecorator, path, `@Tool effect must be 'read' or 'write', got ${JSON.stringify(options.effect)}.`);
  }
  const effect = options.effect === 'read' ? 'read' : 'write';
  const doc = readDocComment(tool.method);
  checkDescription(tool, doc, path, diagnostics);

  context.builder.beginRoot(tool.parameters.some((p) => p.kind === 'input'));
  const input = buildInput(tool, doc, name, path, context, new InstancePlanner(tool.method.getProject(), diagnostics));
  if (!input) return undefined;
  const defs = context.builder.takeDefs();
  const inputSchema = orderKeys(foldRuleNotes(defs ? { ...input.schema, $defs: defs } : input.schema));

  const description = withKeywords(doc);
  const definition: ToolDefinition = { name, description, input_schema: plainJson(inputSchema) };
  const examples = readExamples(doc, inputSchema, path, context);
  if (examples.length > 0) definition.input_examples = examples;
  if (options.strict === true) {
    const strict = toStrictSubset(inputSchema);
    definition.input_schema = plainJson(orderKeys(strict.schema));
    definition.strict = true;
    for (const moved of strict.moved) {
      diagnostics.warning(tool.toolDecorator, [...path, ...moved.path], `strict tool: ${moved.keywords.join(', ')} cannot be enforced by the API, so the definition states ${moved.keywords.length === 1 ? 'it' : 'them'} in the description; the run time still checks ${moved.keywords.length === 1 ? 'it' : 'them'} against the full schema.`);
    }
  }
  if (options.cacheControl !== undefined) definition.cache_control = options.cacheControl;
  Object.assign(definition, apiFeatureFields(tool, options, name, description, path, diagnostics));

  const location = locationOf(tool.method);
  const outputSchema = outputSchemaOf(tool.method, path, diagnostics);
  return {
    name,
    provider: { className: tool.className, file: tool.classDeclaration.getSourceFile().getFilePath() },
    method: tool.methodName,
    effect,
    inputSchema,
    definition,
    input: input.input,
    parameters: input.parameters,
    instancePlan: input.instancePlan,
    ...(outputSchema && { outputSchema }),
    location,
  };
}

interface BuiltInput {
  schema: JsonSchema;
  input: ToolInput;
  parameters: ParameterBinding[];
  instancePlan: InstancePlanModel;
}

function buildInput(tool: ScannedTool, doc: DocComment, toolName: string, path: string[], context: ModelContext, planner: InstancePlanner): BuiltInput | undefined {
  const { diagnostics } = context;
  const parameters: ParameterBinding[] = [];
  let ok = true;
  for (const parameter of tool.parameters) {
    if (!parameter.kind) {
      diagnostics.error(parameter.declaration, [...path, parameter.declaration.getName()], 'every parameter of a @Tool method needs @Param(), @Input() or @Ctx(); add one.');
      ok = false;
    }
  }
  const dtos = tool.parameters.filter((p) => p.kind === 'input');
  const params = tool.parameters.filter((p) => p.kind === 'param');
  if (dtos.length > 1 || (dtos.length === 1 && params.length > 0)) {
    diagnostics.error(tool.method, path, 'a tool has one input object: use either one @Input() DTO or one @Param() per property, not both.');
    return undefined;
  }
  if (!ok) return undefined;
  if (dtos.length === 1) {
    const dto = buildDtoInput(dtos[0], path, context);
    if (!dto) return undefined;
    const declaration = dtos[0].declaration;
    const instancePlan = planner.root(declaration.getType().compilerType, { node: declaration.compilerNode, path: [...path, declaration.getName()] });
    return { ...dto, instancePlan, parameters: tool.parameters.map((p) => (p.kind === 'input' ? { kind: 'input' } : { kind: 'ctx' })) };
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const planned: ParamPlanSite[] = [];
  for (const parameter of tool.parameters) {
    if (parameter.kind === 'ctx') {
      parameters.push({ kind: 'ctx' });
      continue;
    }
    const property = buildParamProperty(parameter, doc, path, context);
    if (!property) return undefined;
    if (properties[property.name]) {
      diagnostics.error(parameter.declaration, [...path, property.name], `two parameters map to the property "${property.name}"; give one of them @Param({ name }).`);
    }
    properties[property.name] = property.schema;
    if (!property.optional) required.push(property.name);
    planned.push({ name: property.name, type: parameter.declaration.getType().compilerType, site: { node: parameter.declaration.compilerNode, path: [...path, property.name] } });
    parameters.push({ kind: 'param', property: property.name });
  }
  return {
    schema: { type: 'object', properties, required, additionalProperties: false },
    input: { kind: 'params', className: `${pascalCase(toolName)}Input` },
    parameters,
    instancePlan: planner.params(planned),
  };
}

function buildDtoInput(parameter: ScannedParameter, path: string[], context: ModelContext): Omit<BuiltInput, 'parameters' | 'instancePlan'> | undefined {
  const declaration = parameter.declaration;
  const type = declaration.getType();
  const classDeclaration = type.getSymbol()?.getDeclarations().find(Node.isClassDeclaration);
  const site = [...path, declaration.getName()];
  if (!classDeclaration || !classDeclaration.getName()) {
    context.diagnostics.error(declaration, site, `@Input() needs a class with class-validator decorators (the container validates the input against it), not ${type.getText(declaration)}.`);
    return undefined;
  }
  checkExported(classDeclaration, classDeclaration.getName()!, site, context.diagnostics);
  const schema = context.builder.rootObject(type.compilerType, { node: declaration.compilerNode, path: site, typeNode: declaration.compilerNode.type });
  if (!schema) return undefined;
  return { schema, input: { kind: 'dto', className: classDeclaration.getName()!, file: classDeclaration.getSourceFile().getFilePath() } };
}

interface ParamProperty {
  name: string;
  schema: JsonSchema;
  optional: boolean;
}

function buildParamProperty(parameter: ScannedParameter, doc: DocComment, path: string[], context: ModelContext): ParamProperty | undefined {
  const { diagnostics, builder } = context;
  const declaration = parameter.declaration;
  if (!Node.isIdentifier(declaration.getNameNode())) {
    diagnostics.error(declaration, path, '@Param() needs a plain parameter name (the property name in the input), not a destructuring pattern; use @Input() with a DTO instead.');
    return undefined;
  }
  const options = readDecoratorOptions(parameter.decorator!, PARAM_OPTION_KEYS, diagnostics, [...path, declaration.getName()]);
  const name = typeof options.name === 'string' ? options.name : declaration.getName();
  const propertyPath = [...path, name];
  if (name === FORBIDDEN_KEY) {
    diagnostics.error(declaration, propertyPath, FORBIDDEN_KEY_MESSAGE);
    return undefined;
  }
  const read = builder.property(declaration.getType().compilerType, { node: declaration.compilerNode, path: propertyPath, typeNode: declaration.compilerNode.type });
  const schema = applyKeywords(read.schema, paramKeywords(options, parameter, propertyPath, diagnostics), diagnostics, propertyPath);
  const description = typeof options.description === 'string' ? options.description : doc.tags.find((t) => t.name === 'param' && t.target === declaration.getName())?.text;
  if (description) schema.description = description;
  else diagnostics.warning(declaration, propertyPath, `parameter has no description; add "@param ${declaration.getName()} <what it is and its exact format>" to the method's JSDoc.`);
  const optional = options.optional === true || read.optional || declaration.hasQuestionToken() || declaration.hasInitializer();
  return { name, schema: description && schema.$ref ? { ...schema, description } : schema, optional };
}

/** `@Param({ minimum: 1, pattern: /x/ })` → keywords, each value checked like its JSDoc twin. */
function paramKeywords(options: Record<string, LiteralValue>, parameter: ScannedParameter, path: string[], diagnostics: Diagnostics): Keyword[] {
  const node = parameter.decorator!;
  const keywords: Keyword[] = [];
  const add = (name: string, value: unknown) => keywords.push({ name, value, node, source: `@Param({ ${name} })` });
  for (const key of ['minimum', 'maximum', 'minLength', 'maxLength']) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || (key.endsWith('Length') && (!Number.isInteger(value) || value < 0))) {
      diagnostics.error(node, path, `@Param ${key} expects ${key.endsWith('Length') ? 'a whole number of 0 or more' : 'a number'}, got ${JSON.stringify(value)}.`);
      continue;
    }
    add(key, value);
  }
  if (options.pattern !== undefined) {
    const source = isRegexValue(options.pattern) ? options.pattern.regex : typeof options.pattern === 'string' ? options.pattern : undefined;
    const problem = source === undefined ? 'expects a regular expression' : patternProblem(source);
    if (problem) diagnostics.error(node, path, `@Param pattern is not a valid regular expression: ${problem}.`);
    else add('pattern', source);
  }
  if (options.format !== undefined) {
    if (typeof options.format === 'string' && KNOWN_FORMATS.includes(options.format)) add('format', options.format);
    else diagnostics.error(node, path, `@Param format ${JSON.stringify(options.format)} is not a JSON Schema format; use one of ${KNOWN_FORMATS.join(', ')}.`);
  }
  if (options.enum !== undefined) {
    if (Array.isArray(options.enum) && options.enum.length > 0) add('enum', options.enum);
    else diagnostics.error(node, path, '@Param enum expects a non-empty array of values.');
  }
  return keywords;
}

function readExamples(doc: DocComment, schema: JsonSchema, path: string[], context: ModelContext): Array<Record<string, unknown>> {
  const examples: Array<Record<string, unknown>> = [];
  for (const tag of doc.tags.filter((t) => t.name === 'example')) {
    let value: unknown;
    try {
      value = JSON.parse(tag.text);
    } catch (error) {
      context.diagnostics.error(tag.node, path, `@example must be a JSON object (the input of one call): ${(error as Error).message}.`);
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      context.diagnostics.error(tag.node, path, '@example must be a JSON object (the input of one call).');
      continue;
    }
    const problems = context.examples.problems(schema, value);
    if (problems.length > 0) {
      context.diagnostics.error(tag.node, path, `@example does not satisfy the input schema: ${problems.join('; ')}.`);
      continue;
    }
    examples.push(value as Record<string, unknown>);
  }
  return examples;
}

function checkDescription(tool: ScannedTool, doc: DocComment, path: string[], diagnostics: Diagnostics): void {
  if (!doc.description) {
    diagnostics.error(tool.method.getNameNode(), path, 'the tool has no description; write a JSDoc comment on the method: what it does, when to use it, what it does not do.');
    return;
  }
  const sentences = doc.description.split(/[.!?](?:\s|$)/).filter((s) => s.trim() !== '').length;
  if (sentences < MIN_SENTENCES) {
    diagnostics.warning(tool.method.getNameNode(), path, `the description has ${sentences} sentence${sentences === 1 ? '' : 's'}; write at least ${MIN_SENTENCES}: what it does, when to use it, its limits and what it does not do.`);
  }
}

function checkExported(declaration: ClassDeclaration, className: string, path: string[], diagnostics: Diagnostics): void {
  const problem = classImportProblem(declaration, `class ${className} is not exported; export it so the generated module can import it.`);
  if (problem) diagnostics.error(declaration.getNameNode() ?? declaration, path, problem);
}

function locationOf(node: ParameterDeclaration | Node): string {
  const file = node.getSourceFile();
  const { line, column } = lineAndColumnOf(file.compilerNode, node.getStart());
  return `${file.getFilePath()}:${line}:${column}`;
}

export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}
