import { ts, type Project } from 'ts-morph';
import { FORBIDDEN_KEY } from '@toolwright/core/tooling';
import type { Diagnostics } from '../lint/diagnostic';
import { readDocComment } from '../jsdoc/read-jsdoc';
import { keywordsFromTags } from '../jsdoc/tag-keywords';
import { propertyDecorators } from '../scan/morph-node';
import { keywordsFromValidators } from '../validators/class-validator-keywords';
import { DATE_TYPE, cloneSchema, isNullSchema, type JsonSchema } from './json-schema';
import { applyKeywords } from './keywords';
import { arrayLikeElement, disguisedLibraryType, libraryType } from './library-types';
import { DEFAULT_TYPE_TEXT, arrayElementType, hasFlag, isArrayType, isBooleanLiteral, isEnumLiteral, isLiteralType, isObjectLike, isTupleType, typeArguments } from './type-facts';
import { aliasDeclarationOf, arrayElementNode, tupleElementNodes, unwrapParentheses } from './type-nodes';
import { membersInSourceOrder, type WrittenMember } from './union-order';

export interface SchemaOptions {
  /** Accept `any`/`unknown` as "any JSON value" instead of reporting them. */
  allowAny: boolean;
}

/** Where a type is used: the node to point at and the `Class.method → param → property` path. */
export interface TypeSite {
  node: ts.Node;
  path: readonly string[];
  typeNode?: ts.TypeNode;
  /**
   * The written type arguments in scope, by type parameter: `Page<Slug>` binds `T` to the node
   * `Slug`, so the alias's tags apply wherever `T` is used inside `Page`.
   */
  typeArguments?: TypeArguments;
}

type TypeArguments = ReadonlyMap<ts.Symbol, ts.TypeNode>;

/** A property of an object schema, with what decides whether it is required. */
export interface PropertySchema {
  schema: JsonSchema;
  optional: boolean;
}

/**
 * Turns TypeScript types into JSON Schema through the type checker. Only the types reachable
 * from tool inputs are visited; each finished type is memoized, and a type met again while it is
 * still being converted becomes a `$ref` into the root's `$defs`. The walk reads the compiler's
 * types, symbols and nodes as they are: wrapping each one in ts-morph cost more than the reading.
 */
export class SchemaBuilder {
  private readonly memo = new Map<ts.Type, JsonSchema>();
  private readonly inProgress = new Map<ts.Type, { recursive: boolean }>();
  private defs = new Map<string, JsonSchema>();
  private defNames = new Map<ts.Type, string>();
  private validatesClasses = false;
  /** How many `$ref`s this builder has handed out: a schema built while none was is self-contained. */
  private refsMade = 0;
  private readonly checker: ts.TypeChecker;

  constructor(
    private readonly project: Project,
    private readonly diagnostics: Diagnostics,
    private readonly options: SchemaOptions,
  ) {
    this.checker = project.getTypeChecker().compilerObject;
  }

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
  rootObject(type: ts.Type, site: TypeSite): JsonSchema | undefined {
    if (type.isUnion()) {
      this.diagnostics.error(site.node, site.path, 'the input of a tool must be one object type, not a union; split it into several tools or make the varying part a property.');
      return undefined;
    }
    if (!isObjectLike(type) || isArrayType(type, this.checker) || arrayLikeElement(type, this.checker) || libraryType(type, this.checker) || type.getCallSignatures().length > 0) {
      this.diagnostics.error(site.node, site.path, `the input of a tool must be an object type (a class or interface), not ${this.text(type, site)}.`);
      return undefined;
    }
    const disguised = disguisedLibraryType(type, this.checker, () => this.text(type, site));
    if (disguised) {
      this.diagnostics.error(site.node, site.path, disguised);
      return undefined;
    }
    return this.objectSchema(type, site, true);
  }

  /** The schema of one value; `undefined`/optional is stripped and reported through `optional`. */
  property(type: ts.Type, site: TypeSite): PropertySchema {
    const optional = type.isUnion() && type.types.some((t) => (t.flags & ts.TypeFlags.Undefined) !== 0);
    return { schema: this.convert(type, site), optional };
  }

  convert(type: ts.Type, written: TypeSite): JsonSchema {
    const site = this.bound(written);
    const alias = aliasDeclarationOf(site.typeNode, this.checker);
    if (alias && !alias.getSourceFile().isDeclarationFile) return this.aliased(type, site, alias);
    return this.convertType(type, site);
  }

  /**
   * The site with its type node read through the type arguments in scope (`T` inside `Page<Slug>`
   * is the node `Slug`) and, for a written generic (`Page<Slug>`, `Pair<K, V>`), its own
   * arguments bound to the declaration's type parameters.
   */
  private bound(site: TypeSite): TypeSite {
    const scope = site.typeArguments;
    let node = unwrapParentheses(site.typeNode);
    if (node && scope && ts.isTypeReferenceNode(node) && !node.typeArguments) {
      const symbol = this.checker.getSymbolAtLocation(node.typeName);
      const argument = symbol && scope.get(symbol);
      if (argument) node = argument;
    }
    if (!node || !ts.isTypeReferenceNode(node) || !node.typeArguments) return node === site.typeNode ? site : { ...site, typeNode: node };
    let symbol = this.checker.getSymbolAtLocation(node.typeName);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declaration = symbol?.declarations?.find((d): d is ts.InterfaceDeclaration | ts.ClassDeclaration | ts.TypeAliasDeclaration =>
      (ts.isInterfaceDeclaration(d) || ts.isClassDeclaration(d) || ts.isTypeAliasDeclaration(d)) && (d.typeParameters?.length ?? 0) > 0);
    if (!declaration || declaration.getSourceFile().isDeclarationFile) return { ...site, typeNode: node };
    const bound = new Map(scope);
    declaration.typeParameters!.forEach((parameter, i) => {
      const argument = node.typeArguments![i] ?? parameter.default;
      const parameterSymbol = this.checker.getSymbolAtLocation(parameter.name);
      if (argument && parameterSymbol) bound.set(parameterSymbol, this.bound({ ...site, typeNode: argument }).typeNode!);
    });
    return { ...site, typeNode: node, typeArguments: bound };
  }

  /**
   * A use of `type Slug = string`: the alias's JSDoc tags apply wherever it is used, and its
   * summary is the description unless the property or parameter has its own. The checker keeps
   * no trace of an alias of a primitive, so the written name is followed.
   */
  private aliased(type: ts.Type, site: TypeSite, alias: ts.TypeAliasDeclaration): JsonSchema {
    const schema = this.convert(type, { ...site, typeNode: alias.type });
    const doc = readDocComment(alias);
    const tags = keywordsFromTags(doc.tags, this.diagnostics, site.path);
    applyKeywords(schema, tags.keywords, this.diagnostics, site.path);
    // The alias written closest to the use says the most about it; a `$ref`'s target already says it.
    if (doc.description && !schema.$ref) schema.description = doc.description;
    return schema;
  }

  private convertType(type: ts.Type, site: TypeSite): JsonSchema {
    if (isErrorType(type)) {
      this.diagnostics.error(site.node, site.path, `type name ${this.text(type, site)} cannot be found; import it or declare it (or fix its spelling).`);
      return {};
    }
    if (hasFlag(type, ts.TypeFlags.Any) || hasFlag(type, ts.TypeFlags.Unknown)) {
      if (this.options.allowAny) return {};
      this.diagnostics.error(site.node, site.path, `type ${this.text(type)} tells the model nothing about the value; give it a concrete type.`);
      return {};
    }
    if (hasFlag(type, ts.TypeFlags.TypeParameter)) {
      this.diagnostics.error(site.node, site.path, `open generic type ${this.text(type)}: the schema needs a concrete type; instantiate it (e.g. Page<Order>) at the tool.`);
      return {};
    }
    const flags = type.flags;
    if (flags & ts.TypeFlags.BigIntLike) return this.unsupported(site, 'bigint', 'use number, or a string of digits');
    if (flags & ts.TypeFlags.ESSymbolLike) return this.unsupported(site, 'symbol', 'use a string');
    if (flags & ts.TypeFlags.Never) return this.unsupported(site, 'never', 'no value has this type; to say the key must be absent, make the property optional (key?: never)');
    if (flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) return this.unsupported(site, this.text(type), 'JSON has no such value; remove it or make the property optional');
    if (flags & ts.TypeFlags.NonPrimitive) return { type: 'object' };
    if (hasFlag(type, ts.TypeFlags.Boolean)) return { type: 'boolean' };
    if (hasFlag(type, ts.TypeFlags.String) || hasFlag(type, ts.TypeFlags.TemplateLiteral)) return { type: 'string' };
    if (hasFlag(type, ts.TypeFlags.Number)) return { type: 'number' };
    if (hasFlag(type, ts.TypeFlags.Null)) return { type: 'null' };
    if (isLiteralType(type)) return literalSchema([literalValue(type)]);
    if (type.isUnion()) return this.namedUnion(type, site);
    if (type.isIntersection()) return this.intersection(type, site);
    if (flags & ts.TypeFlags.EnumLike) return this.computedEnum(type, site);
    if (isTupleType(type)) return this.tuple(type as ts.TupleTypeReference, site);
    const element = arrayElementType(type, this.checker);
    if (element) {
      return { type: 'array', items: this.convert(element, { ...site, path: [...site.path, '[]'], typeNode: arrayElementNode(site.typeNode) }) };
    }
    const arrayLike = arrayLikeElement(type, this.checker);
    if (arrayLike) {
      if (arrayLike.extraMembers.length > 0) {
        this.diagnostics.error(site.node, site.path,
          `type ${this.text(type, site)} is an array with extra members (${arrayLike.extraMembers.join(', ')}), which a JSON array cannot carry; remove them, or use an object with an array property.`);
      }
      return { type: 'array', items: this.convert(arrayLike.element, { node: site.node, path: [...site.path, '[]'] }) };
    }
    if (isObjectLike(type)) return this.object(type, site);
    return this.unsupported(site, this.text(type, site), 'use a JSON type: string, number, boolean, an array or an object');
  }

  /**
   * The type as the user would write it where it is used (`Batch`, not `import("…").Batch`);
   * without a site, as ts-morph's `Type.getText()` writes it.
   */
  private text(type: ts.Type, site?: TypeSite): string {
    return site ? this.checker.typeToString(type, site.node, ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope) : this.checker.typeToString(type, undefined, DEFAULT_TYPE_TEXT);
  }

  private unsupported(site: TypeSite, what: string, advice: string): JsonSchema {
    this.diagnostics.error(site.node, site.path, `type ${what} cannot be sent as JSON; ${advice}.`);
    return {};
  }

  /** An enum member whose value the compiler cannot know (`B = 'abc'.length`): no schema can list it. */
  private computedEnum(type: ts.Type, site: TypeSite): JsonSchema {
    const member = type.getSymbol()?.declarations?.find(ts.isEnumMember);
    if (!member) return this.unsupported(site, this.text(type, site), 'use a JSON type: string, number, boolean, an array or an object');
    const name = member.name.getText();
    this.diagnostics.error(site.node, site.path,
      `enum member ${member.parent.name.getText()}.${name} = ${member.initializer?.getText()} has no literal value, so the schema cannot list it; give it one (${name} = 2 or ${name} = '${name.toLowerCase()}').`);
    return {};
  }

  /**
   * A union met again while it is being converted (`type Json = ... | Json[]`) becomes a `$ref`,
   * like a recursive object. Only a named union can contain itself.
   */
  private namedUnion(type: ts.UnionType, site: TypeSite): JsonSchema {
    const build = () => this.union(membersInSourceOrder(type, site.typeNode, this.checker), site);
    if (!type.aliasSymbol) return build();
    const key = type;
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
    const description = this.typeDescription(type);
    this.defs.set(this.defName(type), description ? { ...schema, description } : schema);
    return this.ref(type);
  }

  private union(members: WrittenMember[], site: TypeSite): JsonSchema {
    const nullable = members.some((m) => hasFlag(m.type, ts.TypeFlags.Null));
    const rest = absorbLiterals(members.filter((m) => !hasFlag(m.type, ts.TypeFlags.Null) && !hasFlag(m.type, ts.TypeFlags.Undefined)).map(unbranded));
    if (rest.length === 1) {
      const only = this.convert(rest[0].type, { ...site, typeNode: rest[0].typeNode ?? site.typeNode });
      return nullable ? withNull(only) : only;
    }
    const booleans = rest.filter((m) => isBooleanLiteral(m.type));
    // `boolean` reaches the checker as `true | false`; keep it one boolean where it stood.
    const collapseBoolean = booleans.length === 2;
    let schema: JsonSchema;
    if (rest.length > 0 && rest.every((m) => isLiteralType(m.type)) && !collapseBoolean) {
      schema = literalSchema(rest.map((m) => literalValue(m.type)));
    } else {
      const parts: JsonSchema[] = [];
      for (const member of rest) {
        if (collapseBoolean && isBooleanLiteral(member.type)) {
          if (member === booleans[0]) parts.push({ type: 'boolean' });
          continue;
        }
        parts.push(this.convert(member.type, { ...site, typeNode: member.typeNode }));
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
  private intersection(type: ts.IntersectionType, site: TypeSite): JsonSchema {
    const parts = type.types;
    const primitives = parts.filter(isPrimitive);
    if (primitives.length > 0) {
      const schemas = primitives.map((p) => this.convert(p, { node: site.node, path: site.path }));
      return schemas.length === 1 ? schemas[0] : { allOf: schemas };
    }
    const array = parts.find((p) => isArrayType(p, this.checker) || isTupleType(p) || arrayLikeElement(p, this.checker));
    if (array) return this.convert(array, { node: site.node, path: site.path });
    return this.object(type, site);
  }

  private tuple(type: ts.TupleTypeReference, site: TypeSite): JsonSchema {
    const elementFlags = type.target.elementFlags;
    if (elementFlags.some((f) => f & ts.ElementFlags.Variable)) {
      this.diagnostics.error(site.node, site.path, `tuple ${this.text(type, site)} has a rest element; use an array, or a tuple of fixed length.`);
      return {};
    }
    const elements = typeArguments(type, this.checker);
    // `prefixItems` must not be empty; an empty tuple is the array with no items.
    if (elements.length === 0) return { type: 'array', maxItems: 0 };
    const nodes = tupleElementNodes(site.typeNode);
    const required = elementFlags.filter((f) => f & ts.ElementFlags.Required).length;
    return {
      type: 'array',
      prefixItems: elements.map((e, i) => this.convert(e, { ...site, path: [...site.path, `[${i}]`], typeNode: nodes[i] })),
      items: false,
      minItems: required,
      maxItems: elements.length,
    };
  }

  private object(type: ts.Type, site: TypeSite): JsonSchema {
    const library = libraryType(type, this.checker);
    if (library?.kind === 'date') {
      const schema: JsonSchema = { type: 'string', format: 'date-time' };
      (schema as { [DATE_TYPE]?: true })[DATE_TYPE] = true;
      return schema;
    }
    // The instance plan reads the same type and hands the method a `URL`.
    if (library?.kind === 'url') return { type: 'string', format: 'uri' };
    if (library?.kind === 'refused') return this.unsupported(site, library.name, library.advice);
    const disguised = disguisedLibraryType(type, this.checker, () => this.text(type, site));
    if (disguised) {
      this.diagnostics.error(site.node, site.path, disguised);
      return {};
    }
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      return this.unsupported(site, `function ${this.text(type, site)}`, 'a tool input carries data only; take the data the function would need');
    }
    const key = type;
    // Inside a written generic the same type may carry other tags (`Page<Slug>` is `Page<string>` to the checker).
    const cached = site.typeArguments ? undefined : this.memo.get(key);
    if (cached) return cloneSchema(cached);
    const running = this.inProgress.get(key);
    if (running) {
      running.recursive = true;
      return this.ref(type);
    }
    return this.objectSchema(type, site, false);
  }

  private objectSchema(type: ts.Type, site: TypeSite, isRoot: boolean): JsonSchema {
    const key = type;
    const state = { recursive: false };
    this.inProgress.set(key, state);
    const errorsBefore = this.diagnostics.errorCount;
    const refsBefore = this.refsMade;
    const indexType = type.getStringIndexType() ?? type.getNumberIndexType();
    // `Record<string, never>`: no key can have a value, so the object is empty.
    const closed = !indexType || hasFlag(indexType, ts.TypeFlags.Never);
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
    const written = closed ? {} : this.indexNodes(type, site);
    const keySite = { ...site, path: [...site.path, '[key]'] };
    const additional = closed ? false : this.convert(indexType, { ...keySite, typeNode: written.value });
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0 || isRoot) schema.required = required;
    const keys = written.key && this.keySchema(written.key, keySite);
    if (keys) schema.propertyNames = keys;
    schema.additionalProperties = additional;
    if (indexType && Object.keys(properties).length === 0 && !isRoot) delete schema.properties;
    this.inProgress.delete(key);
    if (state.recursive) {
      const description = this.typeDescription(type);
      this.defs.set(this.defName(type), description ? { ...schema, description } : schema);
      return isRoot ? schema : this.ref(type);
    }
    if (this.diagnostics.errorCount === errorsBefore && this.refsMade === refsBefore && !site.typeArguments) this.memo.set(key, cloneSchema(schema));
    return schema;
  }

  /** The written key and value of `Record<K, V>` or of an index signature `[key: K]: V`, where the tags of their aliases live. */
  private indexNodes(type: ts.Type, site: TypeSite): { key?: ts.TypeNode; value?: ts.TypeNode } {
    const node = unwrapParentheses(site.typeNode);
    if (node && ts.isTypeReferenceNode(node) && node.typeArguments?.length === 2 && ts.isIdentifier(node.typeName) && node.typeName.text === 'Record') {
      const declaration = this.checker.getSymbolAtLocation(node.typeName)?.declarations?.[0];
      if (declaration?.getSourceFile().isDeclarationFile) return { key: node.typeArguments[0], value: node.typeArguments[1] };
    }
    const signature = this.checker.getIndexInfosOfType(type).find((info) => info.declaration)?.declaration;
    return signature ? { key: signature.parameters[0]?.type, value: signature.type } : {};
  }

  /** What a written key type says about the keys beyond being strings (an alias's `@pattern`), as `propertyNames`. */
  private keySchema(keyNode: ts.TypeNode, site: TypeSite): JsonSchema | undefined {
    const keySite = this.bound({ ...site, typeNode: keyNode });
    if (!aliasDeclarationOf(keySite.typeNode, this.checker)) return undefined;
    const { type: _type, description: _description, ...rules } = this.convert(this.checker.getTypeFromTypeNode(keySite.typeNode!), keySite);
    return Object.keys(rules).length > 0 ? rules : undefined;
  }

  /** One property of an object type: its type, JSDoc, tags and class-validator decorators. */
  private objectProperty(property: ts.Symbol, site: TypeSite): PropertySchema | typeof ABSENT | undefined {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    if (declaration && (ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration))) return undefined;
    if (declaration && isNonPublic(declaration)) return undefined;
    const path = [...site.path, property.getName()];
    if (property.getName() === FORBIDDEN_KEY) {
      this.diagnostics.error(declaration ?? site.node, path, FORBIDDEN_KEY_MESSAGE);
      return undefined;
    }
    const doc = readDocComment(declaration);
    const tags = keywordsFromTags(doc.tags, this.diagnostics, path);
    if (tags.hidden) return undefined;
    const node = declaration ?? site.node;
    const type = this.checker.getTypeOfSymbolAtLocation(property, site.node);
    const declaredOptional = (property.flags & ts.SymbolFlags.Optional) !== 0;
    if (declaredOptional && isNothing(type)) return ABSENT;
    const typeNode = declaration && (ts.isPropertyDeclaration(declaration) || ts.isPropertySignature(declaration)) ? declaration.type : undefined;
    const read = this.property(type, { node, path, typeNode, ...(site.typeArguments && { typeArguments: site.typeArguments }) });
    const decorators = declaration && ts.isPropertyDeclaration(declaration) ? propertyDecorators(this.project, declaration) : [];
    const validators = keywordsFromValidators(decorators, this.diagnostics, path);
    if (this.validatesClasses && ts.isPropertyDeclaration(node) && !validators.validated) {
      this.diagnostics.warning(node, path, 'no class-validator decorator: the container validates with forbidNonWhitelisted, so any value sent for this property is refused; add one (e.g. @IsString()).');
    }
    const schema = applyKeywords(read.schema, [...tags.keywords, ...validators.keywords], this.diagnostics, path);
    const description = doc.description || this.typeDescription(type);
    if (description && !schema.$ref) schema.description = description;
    if (!description && schema.description === undefined && isWrittenProperty(node)) {
      this.diagnostics.warning(node, path, 'property has no description; add a JSDoc comment above it (/** what it is and its exact format */).');
    }
    const optional = read.optional || declaredOptional || validators.optional;
    return { schema: description && schema.$ref ? { ...schema, description } : schema, optional };
  }

  /** A property without JSDoc of its own takes the JSDoc of the class, interface or enum it is. */
  private typeDescription(type: ts.Type): string {
    const nonNull = type.isUnion() ? type.types.filter((t) => !hasFlag(t, ts.TypeFlags.Null) && !hasFlag(t, ts.TypeFlags.Undefined)) : [type];
    let declaration: ts.Node | undefined;
    if (nonNull.length > 0 && nonNull.every(isEnumLiteral)) {
      declaration = nonNull[0].getSymbol()?.declarations?.[0]?.parent;
    } else if (nonNull.length === 1) {
      const target = isArrayType(nonNull[0], this.checker) ? arrayElementType(nonNull[0], this.checker) : nonNull[0];
      declaration = (target?.aliasSymbol ?? target?.getSymbol())?.declarations?.[0];
    } else {
      declaration = type.aliasSymbol?.declarations?.[0];
    }
    if (!declaration || declaration.getSourceFile().isDeclarationFile) return '';
    return readDocComment(declaration).description;
  }

  private ref(type: ts.Type): JsonSchema {
    this.refsMade++;
    return { $ref: `#/$defs/${this.defName(type)}` };
  }

  private defName(type: ts.Type): string {
    const existing = this.defNames.get(type);
    if (existing) return existing;
    const base = (type.aliasSymbol ?? type.getSymbol())?.getName().replace(/[^A-Za-z0-9_]/g, '') || 'Type';
    const taken = new Set(this.defNames.values());
    let name = base === 'type' || base === '' ? 'Type' : base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    this.defNames.set(type, name);
    return name;
  }
}

/** The run time refuses any input holding `FORBIDDEN_KEY`: a property by that name could never be sent. */
export const FORBIDDEN_KEY_MESSAGE = 'a property named __proto__ can never be sent: the container refuses any input with a __proto__ key, which would set an object\'s prototype; rename it.';

/** What `objectProperty` returns for `key?: never`: the key must not be sent. */
const ABSENT = Symbol('absent');

/** The checker's stand-in for a name it could not resolve. */
function isErrorType(type: ts.Type): boolean {
  return hasFlag(type, ts.TypeFlags.Any) && (type as { intrinsicName?: string }).intrinsicName === 'error';
}

function isPrimitive(type: ts.Type): boolean {
  return (type.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.ESSymbolLike)) !== 0;
}

/** `undefined`, `never` or `void`: the type of `key?: never` once the checker has read it. */
function isNothing(type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.every((t) => (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Never | ts.TypeFlags.Void)) !== 0);
}

/** Members keyed by a symbol (`[Symbol.iterator]`, `[secret]`) have no JSON name. */
function isSymbolKeyed(property: ts.Symbol): boolean {
  return /^__[@#]/.test(property.escapedName as string);
}

/** A property the user wrote in their own code, so they can document it. */
function isWrittenProperty(node: ts.Node): boolean {
  return (ts.isPropertySignature(node) || ts.isPropertyDeclaration(node)) && !node.getSourceFile().isDeclarationFile;
}

/** `UserId` (a branded string) as the `string` it is, for unions. */
function unbranded(member: WrittenMember): WrittenMember {
  if (!member.type.isIntersection()) return member;
  const primitives = member.type.types.filter(isPrimitive);
  return primitives.length === 1 ? { type: primitives[0], typeNode: member.typeNode } : member;
}

/** `'a' | 'b' | (string & {})` is any string: the literals only help editors complete. */
function absorbLiterals(members: WrittenMember[]): WrittenMember[] {
  const anyString = members.some((m) => hasFlag(m.type, ts.TypeFlags.String));
  const anyNumber = members.some((m) => hasFlag(m.type, ts.TypeFlags.Number));
  const kept = members.filter((m) => {
    if (anyString && (m.type.isStringLiteral() || hasFlag(m.type, ts.TypeFlags.TemplateLiteral))) return false;
    return !(anyNumber && hasFlag(m.type, ts.TypeFlags.NumberLiteral));
  });
  return kept.filter((m, i) => kept.findIndex((other) => other.type === m.type) === i);
}

function isNonPublic(declaration: ts.Declaration): boolean {
  const modifiers = ts.canHaveModifiers(declaration) ? ts.getModifiers(declaration) : undefined;
  if (modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) return true;
  return ts.isPropertyDeclaration(declaration) && ts.isPrivateIdentifier(declaration.name);
}

function literalValue(type: ts.Type): string | number | boolean {
  if (isBooleanLiteral(type)) return (type as { intrinsicName?: string }).intrinsicName === 'true';
  return (type as ts.LiteralType).value as string | number;
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
