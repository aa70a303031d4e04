import { Node, ts, type Symbol as MorphSymbol, type Type, type TypeAliasDeclaration, type TypeNode } from 'ts-morph';
import type { Diagnostics } from '../lint/diagnostic';
import { readDocComment } from '../jsdoc/read-jsdoc';
import { keywordsFromTags } from '../jsdoc/tag-keywords';
import { keywordsFromValidators } from '../validators/class-validator-keywords';
import { DATE_TYPE, cloneSchema, isNullSchema, type JsonSchema } from './json-schema';
import { applyKeywords } from './keywords';
import { arrayLikeElement, libraryType } from './library-types';
import { aliasDeclarationOf, arrayElementNode, tupleElementNodes, writtenTypeNode } from './type-nodes';
import { membersInSourceOrder, type WrittenMember } from './union-order';

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
  /** How many `$ref`s this builder has handed out: a schema built while none was is self-contained. */
  private refsMade = 0;

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
    if (!isObjectLike(type) || type.isArray() || type.isReadonlyArray() || arrayLikeElement(type) || libraryType(type) || type.compilerType.getCallSignatures().length > 0) {
      this.diagnostics.error(site.node, site.path, `the input of a tool must be an object type (a class or interface), not ${typeText(type, site)}.`);
      return undefined;
    }
    return this.objectSchema(type, site, true);
  }

  /** The schema of one value; `undefined`/optional is stripped and reported through `optional`. */
  property(type: Type, site: TypeSite): PropertySchema {
    // Read on the compiler's type: wrapping each member of every union costs more than the test.
    const compiled = type.compilerType;
    const optional = compiled.isUnion() && compiled.types.some((t) => (t.flags & ts.TypeFlags.Undefined) !== 0);
    return { schema: this.convert(type, site), optional };
  }

  convert(type: Type, site: TypeSite): JsonSchema {
    const alias = aliasDeclarationOf(site.typeNode);
    if (alias && !alias.getSourceFile().isDeclarationFile()) return this.aliased(type, site, alias);
    return this.convertType(type, site);
  }

  /**
   * A use of `type Slug = string`: the alias's JSDoc tags apply wherever it is used, and its
   * summary is the description unless the property or parameter has its own. The checker keeps
   * no trace of an alias of a primitive, so the written name is followed.
   */
  private aliased(type: Type, site: TypeSite, alias: TypeAliasDeclaration): JsonSchema {
    const schema = this.convert(type, { ...site, typeNode: alias.getTypeNode() });
    const doc = readDocComment(alias);
    const tags = keywordsFromTags(doc.tags, this.diagnostics, site.path);
    applyKeywords(schema, tags.keywords, this.diagnostics, site.path);
    // The alias written closest to the use says the most about it; a `$ref`'s target already says it.
    if (doc.description && !schema.$ref) schema.description = doc.description;
    return schema;
  }

  private convertType(type: Type, site: TypeSite): JsonSchema {
    if (isErrorType(type)) {
      this.diagnostics.error(site.node, site.path, `type name ${typeText(type, site)} cannot be found; import it or declare it (or fix its spelling).`);
      return {};
    }
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
    if (flags & ts.TypeFlags.BigIntLike) return this.unsupported(site, 'bigint', 'use number, or a string of digits');
    if (flags & ts.TypeFlags.ESSymbolLike) return this.unsupported(site, 'symbol', 'use a string');
    if (flags & ts.TypeFlags.Never) return this.unsupported(site, 'never', 'no value has this type; to say the key must be absent, make the property optional (key?: never)');
    if (flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) return this.unsupported(site, type.getText(), 'JSON has no such value; remove it or make the property optional');
    if (flags & ts.TypeFlags.NonPrimitive) return { type: 'object' };
    if (type.isBoolean()) return { type: 'boolean' };
    if (type.isString() || type.isTemplateLiteral()) return { type: 'string' };
    if (type.isNumber()) return { type: 'number' };
    if (type.isNull()) return { type: 'null' };
    if (type.isLiteral() || type.isBooleanLiteral()) return literalSchema([literalValue(type)]);
    if (type.isUnion()) return this.namedUnion(type, site);
    if (type.isIntersection()) return this.intersection(type, site);
    if (flags & ts.TypeFlags.EnumLike) return this.computedEnum(type, site);
    if (type.isTuple()) return this.tuple(type, site);
    if (type.isArray() || type.isReadonlyArray()) {
      const element = type.getArrayElementType() ?? type.getTypeArguments()[0];
      return { type: 'array', items: this.convert(element, { node: site.node, path: [...site.path, '[]'], typeNode: arrayElementNode(site.typeNode) }) };
    }
    const arrayLike = arrayLikeElement(type);
    if (arrayLike) {
      if (arrayLike.extraMembers.length > 0) {
        this.diagnostics.error(site.node, site.path,
          `type ${typeText(type, site)} is an array with extra members (${arrayLike.extraMembers.join(', ')}), which a JSON array cannot carry; remove them, or use an object with an array property.`);
      }
      return { type: 'array', items: this.convert(arrayLike.element, { node: site.node, path: [...site.path, '[]'] }) };
    }
    if (isObjectLike(type)) return this.object(type, site);
    return this.unsupported(site, typeText(type, site), 'use a JSON type: string, number, boolean, an array or an object');
  }

  private unsupported(site: TypeSite, what: string, advice: string): JsonSchema {
    this.diagnostics.error(site.node, site.path, `type ${what} cannot be sent as JSON; ${advice}.`);
    return {};
  }

  /** An enum member whose value the compiler cannot know (`B = 'abc'.length`): no schema can list it. */
  private computedEnum(type: Type, site: TypeSite): JsonSchema {
    const member = type.getSymbol()?.getDeclarations().find(Node.isEnumMember);
    if (!member) return this.unsupported(site, typeText(type, site), 'use a JSON type: string, number, boolean, an array or an object');
    const name = member.getName();
    this.diagnostics.error(site.node, site.path,
      `enum member ${member.getParent().getName()}.${name} = ${member.getInitializer()?.getText()} has no literal value, so the schema cannot list it; give it one (${name} = 2 or ${name} = '${name.toLowerCase()}').`);
    return {};
  }

  /**
   * A union met again while it is being converted (`type Json = ... | Json[]`) becomes a `$ref`,
   * like a recursive object. Only a named union can contain itself.
   */
  private namedUnion(type: Type, site: TypeSite): JsonSchema {
    const build = () => this.union(membersInSourceOrder(type, site.typeNode), site);
    if (!type.getAliasSymbol()) return build();
    const key = type.compilerType;
    const running = this.inProgress.get(key);
    if (running) {
      running.recursive = true;
      return this.ref(type);
    }
    const state = { recursive: false };
    this.inProgress.set(key, state);
    const schema = build();
    this.inProgress.delete(key);
    if (!state.recursive) return schema;
    const description = typeDescription(type);
    this.defs.set(this.defName(type), description ? { ...schema, description } : schema);
    return this.ref(type);
  }

  private union(members: WrittenMember[], site: TypeSite): JsonSchema {
    const nullable = members.some((m) => m.type.isNull());
    const rest = absorbLiterals(members.filter((m) => !m.type.isNull() && !m.type.isUndefined()).map(unbranded));
    if (rest.length === 1) {
      const only = this.convert(rest[0].type, { node: site.node, path: site.path, typeNode: rest[0].typeNode ?? site.typeNode });
      return nullable ? withNull(only) : only;
    }
    const booleans = rest.filter((m) => m.type.isBooleanLiteral());
    // `boolean` reaches the checker as `true | false`; keep it one boolean where it stood.
    const collapseBoolean = booleans.length === 2;
    let schema: JsonSchema;
    if (rest.length > 0 && rest.every((m) => m.type.isLiteral() || m.type.isBooleanLiteral()) && !collapseBoolean) {
      schema = literalSchema(rest.map((m) => literalValue(m.type)));
    } else {
      const parts: JsonSchema[] = [];
      for (const member of rest) {
        if (collapseBoolean && member.type.isBooleanLiteral()) {
          if (member === booleans[0]) parts.push({ type: 'boolean' });
          continue;
        }
        parts.push(this.convert(member.type, { node: site.node, path: site.path, typeNode: member.typeNode }));
      }
      schema = combine(parts);
    }
    return nullable ? withNull(schema) : schema;
  }

  /**
   * `string & { __brand: 'UserId' }` is a string the type system tells apart: the JSON is the
   * primitive, and the object part exists only in the types. The same holds for an array with a
   * brand. Intersections of objects merge into one object.
   */
  private intersection(type: Type, site: TypeSite): JsonSchema {
    const parts = type.getIntersectionTypes();
    const primitives = parts.filter(isPrimitive);
    if (primitives.length > 0) {
      const schemas = primitives.map((p) => this.convert(p, { node: site.node, path: site.path }));
      return schemas.length === 1 ? schemas[0] : { allOf: schemas };
    }
    const array = parts.find((p) => p.isArray() || p.isReadonlyArray() || p.isTuple() || arrayLikeElement(p));
    if (array) return this.convert(array, { node: site.node, path: site.path });
    return this.object(type, site);
  }

  private tuple(type: Type, site: TypeSite): JsonSchema {
    const target = type.compilerType as ts.TupleTypeReference;
    const elementFlags = target.target.elementFlags;
    if (elementFlags.some((f) => f & ts.ElementFlags.Variable)) {
      this.diagnostics.error(site.node, site.path, `tuple ${typeText(type, site)} has a rest element; use an array, or a tuple of fixed length.`);
      return {};
    }
    const elements = type.getTupleElements();
    // `prefixItems` must not be empty; an empty tuple is the array with no items.
    if (elements.length === 0) return { type: 'array', maxItems: 0 };
    const nodes = tupleElementNodes(site.typeNode);
    const required = elementFlags.filter((f) => f & ts.ElementFlags.Required).length;
    return {
      type: 'array',
      prefixItems: elements.map((e, i) => this.convert(e, { node: site.node, path: [...site.path, `[${i}]`], typeNode: nodes[i] })),
      items: false,
      minItems: required,
      maxItems: elements.length,
    };
  }

  private object(type: Type, site: TypeSite): JsonSchema {
    const library = libraryType(type);
    if (library?.kind === 'date') {
      const schema: JsonSchema = { type: 'string', format: 'date-time' };
      (schema as { [DATE_TYPE]?: true })[DATE_TYPE] = true;
      return schema;
    }
    // The instance plan reads the same type and hands the method a `URL`.
    if (library?.kind === 'url') return { type: 'string', format: 'uri' };
    if (library?.kind === 'refused') return this.unsupported(site, library.name, library.advice);
    if (type.compilerType.getCallSignatures().length > 0 || type.compilerType.getConstructSignatures().length > 0) {
      return this.unsupported(site, `function ${typeText(type, site)}`, 'a tool input carries data only; take the data the function would need');
    }
    const key = type.compilerType;
    const cached = this.memo.get(key);
    if (cached) return cloneSchema(cached);
    const running = this.inProgress.get(key);
    if (running) {
      running.recursive = true;
      return this.ref(type);
    }
    return this.objectSchema(type, site, false);
  }

  private objectSchema(type: Type, site: TypeSite, isRoot: boolean): JsonSchema {
    const key = type.compilerType;
    const state = { recursive: false };
    this.inProgress.set(key, state);
    const errorsBefore = this.diagnostics.errorCount;
    const refsBefore = this.refsMade;
    const indexType = type.getStringIndexType() ?? type.getNumberIndexType();
    // `Record<string, never>`: no key can have a value, so the object is empty.
    const closed = !indexType || indexType.isNever();
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of type.getProperties()) {
      if (isSymbolKeyed(property)) continue;
      const read = this.objectProperty(property, site);
      if (!read) continue;
      if (read === ABSENT) {
        // With additionalProperties false, leaving the key out is what forbids it.
        if (!closed) properties[property.getName()] = { not: {} };
        continue;
      }
      properties[property.getName()] = read.schema;
      if (!read.optional) required.push(property.getName());
    }
    const additional = closed ? false : this.convert(indexType, { node: site.node, path: [...site.path, '[key]'] });
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0 || isRoot) schema.required = required;
    schema.additionalProperties = additional;
    if (indexType && Object.keys(properties).length === 0 && !isRoot) delete schema.properties;
    this.inProgress.delete(key);
    if (state.recursive) {
      const description = typeDescription(type);
      this.defs.set(this.defName(type), description ? { ...schema, description } : schema);
      return isRoot ? schema : this.ref(type);
    }
    if (this.diagnostics.errorCount === errorsBefore && this.refsMade === refsBefore) this.memo.set(key, cloneSchema(schema));
    return schema;
  }

  /** One property of an object type: its type, JSDoc, tags and class-validator decorators. */
  private objectProperty(property: MorphSymbol, site: TypeSite): PropertySchema | typeof ABSENT | undefined {
    const declaration = property.getValueDeclaration() ?? property.getDeclarations()[0];
    if (declaration && (Node.isMethodDeclaration(declaration) || Node.isMethodSignature(declaration))) return undefined;
    if (declaration && isNonPublic(declaration)) return undefined;
    const path = [...site.path, property.getName()];
    const doc = readDocComment(declaration);
    const tags = keywordsFromTags(doc.tags, this.diagnostics, path);
    if (tags.hidden) return undefined;
    const node = declaration ?? site.node;
    const type = property.getTypeAtLocation(site.node);
    if (property.isOptional() && isNothing(type)) return ABSENT;
    const typeNode = declaration && (Node.isPropertyDeclaration(declaration) || Node.isPropertySignature(declaration)) ? writtenTypeNode(declaration) : undefined;
    const read = this.property(type, { node, path, typeNode });
    const decorators = declaration && Node.isPropertyDeclaration(declaration) ? declaration.getDecorators() : [];
    const validators = keywordsFromValidators(decorators, this.diagnostics, path);
    if (this.validatesClasses && Node.isPropertyDeclaration(node) && !validators.validated) {
      this.diagnostics.warning(node, path, 'no class-validator decorator: the container validates with forbidNonWhitelisted, so any value sent for this property is refused; add one (e.g. @IsString()).');
    }
    const schema = applyKeywords(read.schema, [...tags.keywords, ...validators.keywords], this.diagnostics, path);
    const description = doc.description || typeDescription(type);
    if (description && !schema.$ref) schema.description = description;
    if (!description && schema.description === undefined && isWrittenProperty(node)) {
      this.diagnostics.warning(node, path, 'property has no description; add a JSDoc comment above it (/** what it is and its exact format */).');
    }
    const optional = read.optional || property.isOptional() || validators.optional;
    return { schema: description && schema.$ref ? { ...schema, description } : schema, optional };
  }

  private ref(type: Type): JsonSchema {
    this.refsMade++;
    return { $ref: `#/$defs/${this.defName(type)}` };
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

/** The type as the user would write it where it is used (`Batch`, not `import("…").Batch`). */
function typeText(type: Type, site: TypeSite): string {
  return type.getText(site.node, ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope);
}

/** What `objectProperty` returns for `key?: never`: the key must not be sent. */
const ABSENT = Symbol('absent');

function isObjectLike(type: Type): boolean {
  return type.isObject() || type.isIntersection();
}

/** The checker's stand-in for a name it could not resolve. */
function isErrorType(type: Type): boolean {
  return type.isAny() && (type.compilerType as { intrinsicName?: string }).intrinsicName === 'error';
}

function isPrimitive(type: Type): boolean {
  return (type.getFlags() & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.ESSymbolLike)) !== 0;
}

/** `undefined`, `never` or `void`: the type of `key?: never` once the checker has read it. */
function isNothing(type: Type): boolean {
  const parts = type.isUnion() ? type.getUnionTypes() : [type];
  return parts.every((t) => (t.getFlags() & (ts.TypeFlags.Undefined | ts.TypeFlags.Never | ts.TypeFlags.Void)) !== 0);
}

/** Members keyed by a symbol (`[Symbol.iterator]`, `[secret]`) have no JSON name. */
function isSymbolKeyed(property: MorphSymbol): boolean {
  return /^__[@#]/.test(property.compilerSymbol.escapedName as string);
}

/** A property the user wrote in their own code, so they can document it. */
function isWrittenProperty(node: Node): boolean {
  return (Node.isPropertySignature(node) || Node.isPropertyDeclaration(node)) && !node.getSourceFile().isDeclarationFile();
}

/** `UserId` (a branded string) as the `string` it is, for unions. */
function unbranded(member: WrittenMember): WrittenMember {
  if (!member.type.isIntersection()) return member;
  const primitives = member.type.getIntersectionTypes().filter(isPrimitive);
  return primitives.length === 1 ? { type: primitives[0], typeNode: member.typeNode } : member;
}

/** `'a' | 'b' | (string & {})` is any string: the literals only help editors complete. */
function absorbLiterals(members: WrittenMember[]): WrittenMember[] {
  const anyString = members.some((m) => m.type.isString());
  const anyNumber = members.some((m) => m.type.isNumber());
  const kept = members.filter((m) => {
    if (anyString && (m.type.isStringLiteral() || m.type.isTemplateLiteral())) return false;
    return !(anyNumber && m.type.isNumberLiteral());
  });
  return kept.filter((m, i) => kept.findIndex((other) => other.type.compilerType === m.type.compilerType) === i);
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

