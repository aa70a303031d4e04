import { Node, ts, type Symbol as MorphSymbol, type Type, type TypeNode } from 'ts-morph';
import type { Diagnostics } from '../lint/diagnostic';
import { readDocComment } from '../jsdoc/read-jsdoc';
import { keywordsFromTags } from '../jsdoc/tag-keywords';
import { keywordsFromValidators } from '../validators/class-validator-keywords';
import { DATE_TYPE, cloneSchema, isNullSchema, type JsonSchema } from './json-schema';
import { applyKeywords } from './keywords';
import { membersInSourceOrder } from './union-order';

export interface SchemaOptions {
  /** Accept `any`/`unknown` as "any JSON value" instead of reporting them. */
  allowAny: boolean;
}

/** Where a type is used: the node to point at and the `Class.method → param → property` path. */
export interface TypeSite {
  node: Node;
  path: readonly string[];
  typeNode?: TypeNode;
}

/** A property of an object schema, with what decides whether it is required. */
export interface PropertySchema {
  schema: JsonSchema;
  optional: boolean;
}

/** Library types that cannot travel as JSON, with what to use instead. */
const UNSUPPORTED_LIBRARY_TYPES: Record<string, string> = {
  Map: 'use Record<string, T> or an array of entries',
  ReadonlyMap: 'use Record<string, T> or an array of entries',
  WeakMap: 'use Record<string, T>',
  Set: 'use an array (add @uniqueItems if the values must be distinct)',
  ReadonlySet: 'use an array (add @uniqueItems if the values must be distinct)',
  WeakSet: 'use an array',
  Promise: 'take the resolved value instead',
  RegExp: 'take the pattern as a string',
};

/**
 * Turns TypeScript types into JSON Schema through the type checker. Only the types reachable
 * from tool inputs are visited; each finished type is memoized, and a type met again while it is
 * still being converted becomes a `$ref` into the root's `$defs`.
 */
export class SchemaBuilder {
  private readonly memo = new Map<ts.Type, JsonSchema>();
  private readonly inProgress = new Map<ts.Type, { recursive: boolean }>();
  private defs = new Map<string, JsonSchema>();
  private defNames = new Map<ts.Type, string>();
  private validatesClasses = false;

  constructor(
    private readonly diagnostics: Diagnostics,
    private readonly options: SchemaOptions,
  ) {}

  /**
   * Starts a new root: `$defs` belong to one `input_schema`. `validatesClasses`: the user's own
   * classes are the run-time validators (an `@Input` DTO), so their decorators must cover every
   * property.
   */
  beginRoot(validatesClasses: boolean): void {
    this.validatesClasses = validatesClasses;
    this.defs = new Map();
    this.defNames = new Map();
  }

  /** The `$defs` the current root needs, by name; `undefined` when there are none. */
  takeDefs(): JsonSchema | undefined {
    if (this.defs.size === 0) return undefined;
    return Object.fromEntries([...this.defs.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The schema of a DTO used as a whole input: always inlined, never a `$ref`. */
  rootObject(type: Type, site: TypeSite): JsonSchema | undefined {
    if (type.isUnion()) {
      this.diagnostics.error(site.node, site.path, 'the input of a tool must be one object type, not a union; split it into several tools or make the varying part a property.');
      return undefined;
    }
    if (!isObjectLike(type) || type.isArray() || type.getCallSignatures().length > 0) {
      this.diagnostics.error(site.node, site.path, `the input of a tool must be an object type (a class or interface), not ${type.getText()}.`);
      return undefined;
    }
    return this.objectSchema(type, site, true);
  }

  /** The schema of one value; `undefined`/optional is stripped and reported through `optional`. */
  property(type: Type, site: TypeSite): PropertySchema {
    if (type.isUnion() && type.getUnionTypes().some((t) => t.isUndefined())) {
      const rest = type.getUnionTypes().filter((t) => !t.isUndefined());
      return { schema: this.union(rest, site), optional: true };
    }
    return { schema: this.convert(type, site), optional: false };
  }

  convert(type: Type, site: TypeSite): JsonSchema {
    if (type.isAny() || type.isUnknown()) {
      if (this.options.allowAny) return {};
      this.diagnostics.error(site.node, site.path, `type ${type.getText()} tells the model nothing about the value; give it a concrete type.`);
      return {};
    }
    if (type.isTypeParameter()) {
      this.diagnostics.error(site.node, site.path, `open generic type ${type.getText()}: the schema needs a concrete type; instantiate it (e.g. Page<Order>) at the tool.`);
      return {};
    }
    const flags = type.getFlags();
    if (flags & (ts.TypeFlags.BigIntLike)) return this.unsupported(site, 'bigint', 'use number, or a string of digits');
    if (flags & ts.TypeFlags.ESSymbolLike) return this.unsupported(site, 'symbol', 'use a string');
    if (flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)) return this.unsupported(site, type.getText(), 'JSON has no such value; remove it or make the property optional');
    if (type.isBoolean()) return { type: 'boolean' };
    if (type.isString() || type.isTemplateLiteral()) return { type: 'string' };
    if (type.isNumber()) return { type: 'number' };
    if (type.isNull()) return { type: 'null' };
    if (type.isLiteral() || type.isBooleanLiteral()) return literalSchema([literalValue(type)]);
    if (type.isUnion()) return this.union(membersInSourceOrder(type, site.typeNode), site);
    if (type.isTuple()) return this.tuple(type, site);
    if (type.isArray() || type.isReadonlyArray()) {
      const element = type.getArrayElementType() ?? type.getTypeArguments()[0];
      return { type: 'array', items: this.convert(element, { node: site.node, path: [...site.path, '[]'], typeNode: arrayElementNode(site.typeNode) }) };
    }
    if (isObjectLike(type)) return this.object(type, site);
    return this.unsupported(site, type.getText(), 'use a JSON type: string, number, boolean, an array or an object');
  }

  private unsupported(site: TypeSite, what: string, advice: string): JsonSchema {
    this.diagnostics.error(site.node, site.path, `type ${what} cannot be sent as JSON; ${advice}.`);
    return {};
  }

  private union(members: Type[], site: TypeSite): JsonSchema {
    const nullable = members.some((m) => m.isNull());
    const rest = members.filter((m) => !m.isNull() && !m.isUndefined());
    const booleans = rest.filter((m) => m.isBooleanLiteral());
    // `boolean` reaches the checker as `true | false`; keep it one boolean where it stood.
    const collapseBoolean = booleans.length === 2;
    let schema: JsonSchema;
    if (rest.length > 0 && rest.every((m) => m.isLiteral() || m.isBooleanLiteral()) && !collapseBoolean) {
      schema = literalSchema(rest.map(literalValue));
    } else {
      const parts: JsonSchema[] = [];
      for (const member of rest) {
        if (collapseBoolean && member.isBooleanLiteral()) {
          if (member === booleans[0]) parts.push({ type: 'boolean' });
          continue;
        }
        parts.push(this.convert(member, { node: site.node, path: site.path }));
      }
      schema = combine(parts);
    }
    return nullable ? withNull(schema) : schema;
  }

  private tuple(type: Type, site: TypeSite): JsonSchema {
    const target = type.compilerType as ts.TupleTypeReference;
    const elementFlags = target.target.elementFlags;
    if (elementFlags.some((f) => f & ts.ElementFlags.Variable)) {
      this.diagnostics.error(site.node, site.path, `tuple ${type.getText()} has a rest element; use an array, or a tuple of fixed length.`);
      return {};
    }
    const elements = type.getTupleElements();
    const required = elementFlags.filter((f) => f & ts.ElementFlags.Required).length;
    return {
      type: 'array',
      prefixItems: elements.map((e, i) => this.convert(e, { node: site.node, path: [...site.path, `[${i}]`] })),
      items: false,
      minItems: required,
      maxItems: elements.length,
    };
  }

  private object(type: Type, site: TypeSite): JsonSchema {
    const symbol = type.getSymbol();
    const libraryName = symbol && isLibrarySymbol(symbol) ? symbol.getName() : undefined;
    if (libraryName === 'Date') {
      const schema: JsonSchema = { type: 'string', format: 'date-time' };
      (schema as { [DATE_TYPE]?: true })[DATE_TYPE] = true;
      return schema;
    }
    if (libraryName && UNSUPPORTED_LIBRARY_TYPES[libraryName]) return this.unsupported(site, libraryName, UNSUPPORTED_LIBRARY_TYPES[libraryName]);
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      return this.unsupported(site, `function ${type.getText()}`, 'a tool input carries data only; take the data the function would need');
    }
    const key = type.compilerType;
    const cached = this.memo.get(key);
    if (cached) return cloneSchema(cached);
    const running = this.inProgress.get(key);
    if (running) {
      running.recursive = true;
      return { $ref: `#/$defs/${this.defName(type)}` };
    }
    return this.objectSchema(type, site, false);
  }

  private objectSchema(type: Type, site: TypeSite, isRoot: boolean): JsonSchema {
    const key = type.compilerType;
    const state = { recursive: false };
    this.inProgress.set(key, state);
    const errorsBefore = this.diagnostics.errorCount;
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of type.getProperties()) {
      const read = this.objectProperty(property, site);
      if (!read) continue;
      properties[property.getName()] = read.schema;
      if (!read.optional) required.push(property.getName());
    }
    const indexType = type.getStringIndexType() ?? type.getNumberIndexType();
    const additional = indexType ? this.convert(indexType, { node: site.node, path: [...site.path, '[key]'] }) : false;
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0 || isRoot) schema.required = required;
    schema.additionalProperties = additional;
    if (indexType && Object.keys(properties).length === 0 && !isRoot) delete schema.properties;
    this.inProgress.delete(key);
    if (state.recursive) {
      const description = typeDescription(type);
      this.defs.set(this.defName(type), description ? { ...schema, description } : schema);
      return isRoot ? schema : { $ref: `#/$defs/${this.defName(type)}` };
    }
    if (this.diagnostics.errorCount === errorsBefore && !JSON.stringify(schema).includes('"$ref"')) this.memo.set(key, cloneSchema(schema));
    return schema;
  }

  /** One property of an object type: its type, JSDoc, tags and class-validator decorators. */
  private objectProperty(property: MorphSymbol, site: TypeSite): PropertySchema | undefined {
    const declaration = property.getValueDeclaration() ?? property.getDeclarations()[0];
    if (declaration && (Node.isMethodDeclaration(declaration) || Node.isMethodSignature(declaration))) return undefined;
    if (declaration && isNonPublic(declaration)) return undefined;
    const path = [...site.path, property.getName()];
    const doc = readDocComment(declaration);
    const tags = keywordsFromTags(doc.tags, this.diagnostics, path);
    if (tags.hidden) return undefined;
    const node = declaration ?? site.node;
    const type = property.getTypeAtLocation(site.node);
    const typeNode = declaration && (Node.isPropertyDeclaration(declaration) || Node.isPropertySignature(declaration)) ? declaration.getTypeNode() : undefined;
    const read = this.property(type, { node, path, typeNode });
    const decorators = declaration && Node.isPropertyDeclaration(declaration) ? declaration.getDecorators() : [];
    const validators = keywordsFromValidators(decorators, this.diagnostics, path);
    if (this.validatesClasses && Node.isPropertyDeclaration(node) && !validators.validated) {
      this.diagnostics.warning(node, path, 'no class-validator decorator: the container validates with forbidNonWhitelisted, so any value sent for this property is refused; add one (e.g. @IsString()).');
    }
    const schema = applyKeywords(read.schema, [...tags.keywords, ...validators.keywords], this.diagnostics, path);
    const description = doc.description || typeDescription(type);
    if (description && !schema.$ref) schema.description = description;
    const optional = read.optional || property.isOptional() || validators.optional;
    return { schema: description && schema.$ref ? { ...schema, description } : schema, optional };
  }

  private defName(type: Type): string {
    const existing = this.defNames.get(type.compilerType);
    if (existing) return existing;
    const base = (type.getAliasSymbol() ?? type.getSymbol())?.getName().replace(/[^A-Za-z0-9_]/g, '') || 'Type';
    const taken = new Set(this.defNames.values());
    let name = base === 'type' || base === '' ? 'Type' : base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    this.defNames.set(type.compilerType, name);
    return name;
  }
}

function isObjectLike(type: Type): boolean {
  return type.isObject() || type.isIntersection();
}

function isLibrarySymbol(symbol: MorphSymbol): boolean {
  const file = symbol.getDeclarations()[0]?.getSourceFile();
  return file !== undefined && file.isDeclarationFile() && /[\\/]typescript[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts$/.test(file.getFilePath());
}

function isNonPublic(declaration: Node): boolean {
  if (Node.isModifierable(declaration) && (declaration.hasModifier(ts.SyntaxKind.PrivateKeyword) || declaration.hasModifier(ts.SyntaxKind.ProtectedKeyword))) return true;
  return (Node.isPropertyDeclaration(declaration) && declaration.getName().startsWith('#'));
}

function literalValue(type: Type): string | number | boolean {
  if (type.isBooleanLiteral()) return type.getText() === 'true';
  return type.getLiteralValue() as string | number;
}

function literalSchema(values: Array<string | number | boolean>): JsonSchema {
  const kinds = [...new Set(values.map((v) => typeof v))];
  const type = kinds.length === 1 ? kinds[0] : kinds;
  return { type, enum: values };
}

/** `string | number` stays a type list; anything richer becomes `anyOf`. */
function combine(schemas: JsonSchema[]): JsonSchema {
  const flat = schemas.flatMap((s) => (Object.keys(s).length === 1 && Array.isArray(s.anyOf) ? (s.anyOf as JsonSchema[]) : [s]));
  const unique = flat.filter((s, i) => flat.findIndex((t) => JSON.stringify(t) === JSON.stringify(s)) === i);
  if (unique.length === 1) return unique[0];
  if (unique.every((s) => Object.keys(s).length === 1 && typeof s.type === 'string')) return { type: unique.map((s) => s.type) };
  return { anyOf: unique };
}

function withNull(schema: JsonSchema): JsonSchema {
  if (isNullSchema(schema)) return schema;
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...(schema.anyOf as JsonSchema[]), { type: 'null' }] };
  if (schema.$ref || schema.type === undefined) return { anyOf: [schema, { type: 'null' }] };
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  const nullable: JsonSchema = { ...schema, type: [...types, 'null'] };
  if (Array.isArray(schema.enum)) nullable.enum = [...(schema.enum as unknown[]), null];
  return nullable;
}

/** A property without JSDoc of its own takes the JSDoc of the class, interface or enum it is. */
function typeDescription(type: Type): string {
  const nonNull = type.isUnion() ? type.getUnionTypes().filter((t) => !t.isNull() && !t.isUndefined()) : [type];
  let declaration: Node | undefined;
  if (nonNull.length > 0 && nonNull.every((t) => t.isEnumLiteral())) {
    declaration = nonNull[0].getSymbol()?.getDeclarations()[0]?.getParent();
  } else if (nonNull.length === 1) {
    const target = nonNull[0].isArray() ? nonNull[0].getArrayElementType() : nonNull[0];
    declaration = (target?.getAliasSymbol() ?? target?.getSymbol())?.getDeclarations()[0];
  } else {
    declaration = type.getAliasSymbol()?.getDeclarations()[0];
  }
  if (!declaration || declaration.getSourceFile().isDeclarationFile()) return '';
  return readDocComment(declaration).description;
}

function arrayElementNode(node: TypeNode | undefined): TypeNode | undefined {
  if (node && Node.isArrayTypeNode(node)) return node.getElementTypeNode();
  return undefined;
}
