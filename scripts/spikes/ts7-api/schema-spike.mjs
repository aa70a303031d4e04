// Spike for docs/typescript-7.md: builds the input schemas of a project's @Tool methods through
// TypeScript 7's own API (`typescript/unstable/sync`, the native compiler over IPC), with no
// TypeScript 6 and no ts-morph, and compares them with what tools-codegen wrote (--json).
//
//   npm install && node schema-spike.mjs <tsconfig> <tools-codegen --json output>
//
// It covers what the examples use (@Param of primitive, literal, union, array and object types,
// JSDoc descriptions and @param tags, @ToolGroup prefixes) and says so when it meets anything
// else; class-validator DTOs (@Input), formats and @Param options are not attempted.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { API, TypeFlags, SignatureKind } from 'typescript/unstable/sync';
import { SyntaxKind, isCallExpression, isClassDeclaration, isDecorator, isIdentifier, isMethodDeclaration, isObjectLiteralExpression, isPropertyAssignment, isStringLiteral } from 'typescript/unstable/ast';

const [tsconfigArg, expectedArg] = process.argv.slice(2);
if (!tsconfigArg) {
  console.error('usage: node schema-spike.mjs <tsconfig> [tools-codegen --json output]');
  process.exit(2);
}
const tsconfig = resolve(tsconfigArg);
const started = performance.now();
const api = new API({ cwd: dirname(tsconfig) });
const snapshot = api.updateSnapshot({ openProjects: [tsconfig] });
const project = snapshot.getProject(tsconfig);
const { program, checker } = project;
const unsupported = [];

function decoratorsOf(node) {
  return (node.modifiers ?? []).filter(isDecorator);
}

/** `@Name(...)`: the call's first argument, or null when the node has no such decorator. */
function decoratorCall(node, name) {
  for (const decorator of decoratorsOf(node)) {
    const call = decorator.expression;
    if (isCallExpression(call) && isIdentifier(call.expression) && call.expression.text === name) return call.arguments[0] ?? {};
  }
  return null;
}

function stringOption(objectLiteral, key) {
  if (!objectLiteral || !isObjectLiteralExpression(objectLiteral)) return undefined;
  const property = objectLiteral.properties.find((p) => isPropertyAssignment(p) && isIdentifier(p.name) && p.name.text === key);
  return property && isStringLiteral(property.initializer) ? property.initializer.text : undefined;
}

const snake = (name) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** Types being described, outermost first: a recursive type would otherwise never end ($defs are not attempted). */
const inProgress = new Set();

/** The JSON Schema of a type, for the constructs the spike covers. */
function schemaOf(type, where) {
  if (inProgress.has(type)) {
    unsupported.push(`${where}: a recursive type (${checker.typeToString(type)})`);
    return {};
  }
  inProgress.add(type);
  try {
    return describe(type, where);
  } finally {
    inProgress.delete(type);
  }
}

function describe(type, where) {
  const flags = type.flags;
  if (flags & TypeFlags.String) return { type: 'string' };
  if (flags & TypeFlags.Number) return { type: 'number' };
  if (flags & TypeFlags.Boolean) return { type: 'boolean' };
  if (flags & TypeFlags.Null) return { type: 'null' };
  if (flags & (TypeFlags.StringLiteral | TypeFlags.NumberLiteral)) return { const: type.value };
  if (flags & TypeFlags.BooleanLiteral) return { const: checker.typeToString(type) === 'true' };
  if (flags & TypeFlags.Union) {
    const members = type.getTypes().filter((t) => !(t.flags & TypeFlags.Undefined));
    if (members.every((t) => t.flags & TypeFlags.BooleanLiteral)) return { type: 'boolean' };
    if (members.every((t) => t.flags & (TypeFlags.StringLiteral | TypeFlags.NumberLiteral))) return { enum: members.map((t) => t.value) };
    return { anyOf: members.map((t) => schemaOf(t, where)) };
  }
  if (checker.isArrayType(type)) return { type: 'array', items: schemaOf(checker.getTypeArguments(type)[0], `${where}[]`) };
  if (flags & TypeFlags.Object) {
    if (checker.getSignaturesOfType(type, SignatureKind.Call).length > 0) {
      unsupported.push(`${where}: a function type`);
      return {};
    }
    const properties = {};
    const required = [];
    for (const symbol of checker.getPropertiesOfType(type)) {
      const propertyType = checker.getTypeOfSymbol(symbol);
      properties[symbol.name] = schemaOf(checker.getNonNullableType(propertyType) ?? propertyType, `${where}.${symbol.name}`);
      if (!(symbol.flags & 16777216 /* SymbolFlags.Optional */)) required.push(symbol.name);
    }
    return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  }
  unsupported.push(`${where}: ${checker.typeToString(type)}`);
  return {};
}

const tools = [];
for (const fileName of program.getSourceFileNames()) {
  if (fileName.includes('/node_modules/') || fileName.endsWith('.d.ts')) continue;
  const file = program.getSourceFile(fileName);
  for (const statement of file.statements) {
    if (!isClassDeclaration(statement) || !statement.name) continue;
    const prefix = stringOption(decoratorCall(statement, 'ToolGroup'), 'prefix');
    for (const member of statement.members) {
      if (!isMethodDeclaration(member)) continue;
      const options = decoratorCall(member, 'Tool');
      if (options === null) continue;
      const method = member.name.text;
      const symbol = checker.getSymbolAtLocation(member.name);
      const paramTags = new Map(checker.getJsDocTagsOfSymbol(symbol).filter((t) => t.name === 'param').map((t) => {
        const [name, ...rest] = (t.text ?? '').split(/\s+/);
        return [name, rest.join(' ').trim()];
      }));
      const properties = {};
      const required = [];
      for (const parameter of member.parameters) {
        if (decoratorCall(parameter, 'Param') === null) continue; // @Ctx and @Input are not attempted
        const name = stringOption(decoratorCall(parameter, 'Param'), 'name') ?? parameter.name.text;
        const type = checker.getTypeAtLocation(parameter);
        const schema = schemaOf(type.flags & TypeFlags.Union ? checker.getNonNullableType(type) : type, `${statement.name.text}.${method}(${name})`);
        const description = paramTags.get(parameter.name.text);
        properties[name] = description ? { ...schema, description } : schema;
        if (!parameter.questionToken && !parameter.initializer) required.push(name);
      }
      tools.push({
        name: stringOption(options, 'name') ?? (prefix ? `${prefix}_${snake(method)}` : snake(method)),
        description: checker.getDocumentationCommentOfSymbol(symbol),
        input_schema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
      });
    }
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(2);
api.close();

console.log(JSON.stringify(tools, null, 2));
console.error(`spike: ${tools.length} tools from ${tsconfigArg} through typescript/unstable/sync in ${seconds}s`);
for (const problem of unsupported) console.error(`spike: not covered: ${problem}`);

if (expectedArg) {
  // What codegen wrote, reduced to what the spike builds: names, property types, required.
  const expected = JSON.parse(readFileSync(expectedArg, 'utf8'));
  const shape = (schema) => JSON.stringify(schema, (key, value) => (['description', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'format', 'examples', 'title', '$schema'].includes(key) ? undefined : value));
  let same = 0;
  for (const want of expected) {
    const got = tools.find((t) => t.name === want.name);
    // codegen joins the JSDoc's lines and may add sentences (the example, the limits): the spike's text must be in it.
    const words = (text) => (text ?? '').replace(/\s+/g, ' ').trim();
    const schemaSame = got && shape(got.input_schema) === shape(want.input_schema);
    const descriptionSame = got && words(want.description).includes(words(got.description));
    if (schemaSame && descriptionSame) same++;
    else {
      console.error(`spike: ${want.name} differs:\n  codegen: ${shape(want.input_schema)} ${JSON.stringify(words(want.description))}`);
      console.error(`  spike:   ${got ? `${shape(got.input_schema)} ${JSON.stringify(words(got.description))}` : '(missing)'}`);
    }
  }
  console.error(`spike: ${same} of ${expected.length} tools match tools-codegen's schema (descriptions: the JSDoc summary)`);
  process.exitCode = same === expected.length && tools.length === expected.length ? 0 : 1;
}
