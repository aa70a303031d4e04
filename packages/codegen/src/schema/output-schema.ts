import { ts, type MethodDeclaration } from 'ts-morph';
import { Diagnostics } from '../lint/diagnostic';
import { isSchema, orderKeys, plainJson, type JsonSchema } from './json-schema';
import { isArrayType, isObjectLike, isTupleType, typeArguments } from './type-facts';
import { SchemaBuilder } from './type-to-schema';

/**
 * The JSON Schema of what a tool method resolves to, when that is an object (MCP's
 * `structuredContent` must be one); `undefined` for strings, arrays, content blocks, `void`,
 * unions and anything else. A return type the converter cannot describe costs only the output
 * schema: it is reported as a warning, never as an error, because the tool itself still works.
 */
export function outputSchemaOf(method: MethodDeclaration, path: readonly string[], diagnostics: Diagnostics): JsonSchema | undefined {
  const project = method.getProject();
  const checker = project.getTypeChecker().compilerObject;
  const signature = checker.getSignatureFromDeclaration(method.compilerNode);
  const type = signature && awaited(checker.getReturnTypeOfSignature(signature), checker);
  if (!type || !isPlainObjectType(type, checker)) return undefined;
  const scratch = new Diagnostics();
  const builder = new SchemaBuilder(project, scratch, { allowAny: true });
  builder.beginRoot(false);
  const node = method.compilerNode.type ?? method.compilerNode.name;
  const schema = builder.rootObject(type, { node, path: [...path, 'return'] });
  const problem = scratch.all.find((d) => d.severity === 'error');
  if (!schema || problem) {
    diagnostics.warning(node, [...path, 'return'], `no outputSchema for this return type (${problem?.message ?? 'not an object type'}); MCP clients get the result as text only.`);
    return undefined;
  }
  const defs = builder.takeDefs();
  return plainJson(orderKeys(open(defs ? { ...schema, $defs: defs } : schema)));
}

function awaited(type: ts.Type, checker: ts.TypeChecker): ts.Type {
  if (type.getSymbol()?.getName() !== 'Promise') return type;
  const args = typeArguments(type, checker);
  return args.length === 1 ? awaited(args[0], checker) : type;
}

function isPlainObjectType(type: ts.Type, checker: ts.TypeChecker): boolean {
  if (!isObjectLike(type) || isArrayType(type, checker) || isTupleType(type)) return false;
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return false;
  return type.getSymbol()?.getName() !== 'Date';
}

/**
 * Inputs are closed (`additionalProperties: false`), outputs are not: a TypeScript value may
 * carry more properties than its declared type names, and a client checks results against this.
 */
function open(schema: JsonSchema): JsonSchema {
  const copy: JsonSchema = { ...schema };
  if (copy.additionalProperties === false) delete copy.additionalProperties;
  else if (isSchema(copy.additionalProperties)) copy.additionalProperties = open(copy.additionalProperties);
  for (const key of ['properties', '$defs']) {
    if (isSchema(copy[key])) copy[key] = Object.fromEntries(Object.entries(copy[key] as Record<string, JsonSchema>).map(([name, child]) => [name, open(child)]));
  }
  if (isSchema(copy.items)) copy.items = open(copy.items);
  for (const key of ['prefixItems', 'anyOf', 'allOf']) {
    if (Array.isArray(copy[key])) copy[key] = (copy[key] as JsonSchema[]).map(open);
  }
  return copy;
}
