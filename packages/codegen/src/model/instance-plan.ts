import { Node, ts, type ClassDeclaration, type Decorator, type Project } from 'ts-morph';
import type { Diagnostics } from '../lint/diagnostic';
import { CLASS_TRANSFORMER, CLASS_VALIDATOR, decoratorOrigin } from '../scan/decorator-origin';
import { morphNodeOf, propertyDecorators } from '../scan/morph-node';
import { DEFAULT_TYPE_TEXT, arrayElementType, hasFlag, isArrayType, isBooleanLiteral, isEnumLiteral, isLiteralType, isObjectLike, isTupleType, typeArguments } from '../schema/type-facts';
import { classImportProblem } from './class-import';
import type { ClassReference, InstancePlanModel, ShapePlanModel, ValuePlanModel } from './tool-model';

/** Where a type is used, for diagnostics. */
interface Site {
  node: ts.Node;
  path: readonly string[];
}

/** One `@Param` property to plan: its name in the input, its type and where it is declared. */
export interface ParamPlanSite {
  name: string;
  type: ts.Type;
  site: Site;
}

/** Decorators that check a string; on a property the method receives as a `Date` or `URL` they always fail. */
const STRING_CHECKS = new Set(['IsString', 'IsDateString', 'IsISO8601', 'IsUrl', 'IsRFC3339', 'Matches', 'Length', 'MinLength', 'MaxLength', 'IsNotEmpty']);
/** `@Type(() => Number)` on a `number` says what the type says. */
const PRIMITIVE_WRAPPERS: Record<string, (type: ts.Type) => boolean> = {
  Number: (t) => hasFlag(t, ts.TypeFlags.Number) || hasFlag(t, ts.TypeFlags.NumberLiteral),
  String: (t) => hasFlag(t, ts.TypeFlags.String) || t.isStringLiteral(),
  Boolean: (t) => hasFlag(t, ts.TypeFlags.Boolean) || isBooleanLiteral(t),
};
/** Types whose JSON value is what the method receives: primitives, literals, enums and the unknowns. */
const AS_SENT = ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.ESSymbolLike |
  ts.TypeFlags.EnumLike | ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Never | ts.TypeFlags.Any | ts.TypeFlags.Unknown;
/** class-transformer decorators the instance builder does not apply. */
const IGNORED_TRANSFORMER_DECORATORS = new Set(['Transform', 'Expose', 'Exclude', 'TransformPlainToInstance', 'TransformInstanceToPlain']);

/**
 * Walks the TypeScript types of one tool's input the way the schema does and says what the
 * checked JSON must become: `Date`s and `URL`s, instances of the DTO classes (nested, in arrays,
 * recursive), `Record`s on prototype-free objects. The run time follows the plan, so `@Type` is
 * never needed; where a user's decorator contradicts the type, it is a diagnostic. Like the
 * schema walk, it reads the compiler's types and nodes; ts-morph's only for decorators.
 */
export class InstancePlanner {
  private readonly shapes = new Map<string, ShapePlanModel>();
  private readonly shapeNames = new Map<ts.Type, string>();
  /** Shapes in progress whose plan may still turn out to be "as sent". */
  private readonly pending = new Set<ts.Type>();
  private readonly plain = new Set<ts.Type>();

  private readonly checker: ts.TypeChecker;

  constructor(
    private readonly project: Project,
    private readonly diagnostics: Diagnostics,
  ) {
    this.checker = project.getTypeChecker().compilerObject;
  }

  /** The plan of a DTO used as the whole input (`@Input`): its properties, the root is the class itself. */
  root(type: ts.Type, site: Site): InstancePlanModel {
    const shape = this.shapeOf(type, site, true);
    return this.finish(shape);
  }

  /** The plan of `@Param` properties: one value plan per property of the generated class. */
  params(properties: readonly ParamPlanSite[]): InstancePlanModel {
    const planned: Record<string, ValuePlanModel> = {};
    for (const property of properties) {
      const plan = this.value(property.type, property.site);
      if (plan !== 'json') planned[property.name] = plan;
    }
    return this.finish(Object.keys(planned).length > 0 ? { properties: planned } : {});
  }

  /**
   * Types being planned, each with how many shapes were in progress when it was entered. A type
   * met again inside itself with no object between (`type Json = string | Json[]`) converts
   * nothing there; one met again through an object (`children: Category[]`, or a union alias
   * holding a class) is planned again down to that object, which then refers to its own shape.
   */
  private readonly visiting = new Map<ts.Type, number>();
  /** Shapes referred to from inside themselves: kept even when nothing else in them converts. */
  private readonly referenced = new Set<string>();

  /** A value plan for one type; `'json'` when nothing in it needs converting. */
  value(type: ts.Type, site: Site): ValuePlanModel {
    const key = type;
    const entered = this.visiting.get(key);
    if (entered !== undefined) {
      const name = this.pending.has(key) ? this.shapeNames.get(key) : undefined;
      if (name !== undefined) return this.recursiveShape(type, name, site);
      if (this.pending.size === entered) return 'json';
    }
    this.visiting.set(key, this.pending.size);
    try {
      return this.plan(type, site);
    } finally {
      if (entered === undefined) this.visiting.delete(key);
      else this.visiting.set(key, entered);
    }
  }

  /**
   * A shape met inside itself, before its plan is known: a reference to it when anything reachable
   * from it converts (a class, a `Date`, a record), so every depth is built the same way.
   */
  private recursiveShape(type: ts.Type, name: string, site: Site): ValuePlanModel {
    if (!this.mayConvert(type, site.node, new Set())) return 'json';
    this.referenced.add(name);
    return { shape: name };
  }

  /**
   * Whether any type reachable from `type` converts, walking what `plan` walks: it is true
   * whenever the plan of `type` is not `'json'` (it may also be true when an ambiguous union
   * keeps everything as sent, and the shape is then a plain copy).
   */
  private mayConvert(type: ts.Type, node: ts.Node, seen: Set<ts.Type>): boolean {
    if (seen.has(type) || type.flags & AS_SENT) return false;
    seen.add(type);
    if (type.isUnion()) return type.types.some((member) => this.mayConvert(member, node, seen));
    if (librarySymbolName(type)) return true;
    if (type.isIntersection() && type.types.some(isPrimitive)) return false;
    if (isTupleType(type) || isArrayType(type, this.checker) || isArrayLike(type)) {
      const elements = isTupleType(type) ? typeArguments(type, this.checker) : [typeArguments(type, this.checker)[0] ?? type.getNumberIndexType()];
      return elements.some((element) => element !== undefined && this.mayConvert(element, node, seen));
    }
    if (!isObjectLike(type) || type.getCallSignatures().length > 0) return false;
    if (type.getSymbol()?.declarations?.some(ts.isClassDeclaration)) return true;
    if (type.getStringIndexType() ?? type.getNumberIndexType()) return true;
    return type.getProperties().some((property) => !isSymbolKeyed(property) && this.mayConvert(this.checker.getTypeOfSymbolAtLocation(property, node), node, seen));
  }

  private plan(type: ts.Type, site: Site): ValuePlanModel {
    if (type.flags & AS_SENT) return 'json';
    const members = type.isUnion() ? type.types.filter((t) => !hasFlag(t, ts.TypeFlags.Null) && !hasFlag(t, ts.TypeFlags.Undefined)) : [type];
    if (members.length === 0) return 'json';
    if (members.length > 1) return this.union(members, type, site);
    const single = members[0];
    const library = librarySymbolName(single);
    if (library === 'Date') return 'date';
    if (library === 'URL') return 'url';
    if (isTupleType(single)) {
      const items = typeArguments(single, this.checker).map((element, i) => this.value(element, { node: site.node, path: [...site.path, `[${i}]`] }));
      return items.every((item) => item === 'json') ? 'json' : { tuple: items };
    }
    // A primitive with a brand (`string & { __brand: 'Id' }`) travels as the primitive.
    if (single.isIntersection() && single.types.some(isPrimitive)) return 'json';
    if (isArrayType(single, this.checker) || isArrayLike(single)) {
      const element = typeArguments(single, this.checker)[0] ?? single.getNumberIndexType();
      if (!element) return 'json';
      const items = this.value(element, { node: site.node, path: [...site.path, '[]'] });
      return items === 'json' ? 'json' : { array: items };
    }
    if (isObjectLike(single) && !library && single.getCallSignatures().length === 0) {
      const name = this.shapeName(single, site);
      return name ? { shape: name } : 'json';
    }
    return 'json';
  }

  /**
   * A union converts only when one member needs it and no other member arrives as the same JSON
   * type: `Date | number` is a `Date` when it is text; `Date | string` cannot tell, and says so.
   */
  private union(members: ts.Type[], whole: ts.Type, site: Site): ValuePlanModel {
    const plans = members.map((member) => this.value(member, site));
    const converting = plans.map((plan, i) => ({ plan, member: members[i] })).filter(({ plan }) => plan !== 'json');
    if (converting.length === 0) return 'json';
    const kinds = members.map((member) => jsonKind(member, this.checker));
    const chosen = converting[0];
    const kind = jsonKind(chosen.member, this.checker);
    if (converting.length === 1 && kinds.filter((k) => k === kind || k === 'any').length === 1) return chosen.plan;
    this.diagnostics.warning(site.node, site.path,
      `the members of ${this.checker.typeToString(whole, site.node, DEFAULT_TYPE_TEXT)} arrive as the same JSON type, so the run time cannot tell which to build; the method receives the JSON value as sent. Use one type, or tell them apart by JSON type.`);
    return 'json';
  }

  /** The name of the shape for an object type, or `undefined` when it is kept as sent. */
  private shapeName(type: ts.Type, site: Site): string | undefined {
    const key = type;
    if (this.plain.has(key)) return undefined;
    const known = this.shapeNames.get(key);
    if (known) return known;
    const name = this.reserveName(type);
    this.shapeNames.set(key, name);
    this.pending.add(key);
    const shape = this.shapeOf(type, site, false);
    this.pending.delete(key);
    const needed = shape.class !== undefined || shape.additional !== undefined || shape.properties !== undefined || this.referenced.has(name);
    if (!needed) {
      this.shapeNames.delete(key);
      this.plain.add(key);
      return undefined;
    }
    this.shapes.set(name, shape);
    return name;
  }

  private shapeOf(type: ts.Type, site: Site, isRoot: boolean): ShapePlanModel {
    const compiledClass = isRoot ? undefined : type.getSymbol()?.declarations?.find(ts.isClassDeclaration);
    const shape: ShapePlanModel = {};
    if (compiledClass) {
      const classDeclaration = morphNodeOf(this.project, compiledClass) as ClassDeclaration;
      const className = classDeclaration.getName();
      const problem = classImportProblem(classDeclaration,
        `class ${className} is used in a tool input but not exported; export it so the generated module can build its instances.`);
      if (problem) {
        this.diagnostics.error(classDeclaration.getNameNode() ?? classDeclaration, site.path, problem);
      } else {
        // A class the generated module can import by name has one.
        shape.class = { className: className!, file: classDeclaration.getSourceFile().getFilePath() } satisfies ClassReference;
      }
    }
    const properties: Record<string, ValuePlanModel> = {};
    for (const property of type.getProperties()) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (declaration && (ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration))) continue;
      if (isSymbolKeyed(property)) continue;
      const path = [...site.path, property.getName()];
      const node = declaration ?? site.node;
      const propertyType = this.checker.getTypeOfSymbolAtLocation(property, site.node);
      const plan = this.value(propertyType, { node, path });
      if (declaration && ts.isPropertyDeclaration(declaration)) this.checkDecorators(declaration, propertyType, plan, property, { node, path });
      if (plan !== 'json') properties[property.getName()] = plan;
    }
    const indexType = type.getStringIndexType() ?? type.getNumberIndexType();
    if (indexType) {
      shape.additional = this.value(indexType, { node: site.node, path: [...site.path, '[key]'] });
      // Named properties next to an index signature are read as sent unless planned otherwise.
      for (const property of type.getProperties()) if (!isSymbolKeyed(property)) properties[property.getName()] ??= 'json';
    }
    if (Object.keys(properties).length > 0) shape.properties = properties;
    return shape;
  }

  /** A user's decorator that contradicts the type is an error; one the builder ignores, a warning. */
  private checkDecorators(declaration: ts.PropertyDeclaration, type: ts.Type, plan: ValuePlanModel, property: ts.Symbol, site: Site): void {
    const typeText = this.checker.typeToString(type, site.node, ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope);
    const converted = plan === 'date' ? 'Date' : plan === 'url' ? 'URL' : undefined;
    let validatesNested = false;
    for (const decorator of propertyDecorators(this.project, declaration)) {
      const origin = decoratorOrigin(decorator);
      if (!origin) continue;
      const source = `@${origin.name}()`;
      if (origin.packageName === CLASS_TRANSFORMER) {
        if (origin.name === 'Type') this.checkTypeDecorator(decorator, type, typeText, site);
        else if (IGNORED_TRANSFORMER_DECORATORS.has(origin.name)) {
          this.diagnostics.warning(decorator, site.path, `${source} is not applied: toolwright builds the instance from the TypeScript types, and the method receives the checked JSON value; move the transformation into the method.`);
        }
        continue;
      }
      if (origin.packageName !== CLASS_VALIDATOR) continue;
      if (origin.name === 'ValidateNested') {
        validatesNested = true;
        if (!isObjectPlan(plan) && !hasObjectMember(type, this.checker)) {
          this.diagnostics.error(decorator, site.path, `${source} on ${property.getName()}: ${typeText} is not an object, so there is nothing nested to validate; remove it or type the property as a class.`);
        }
      }
      if (converted && STRING_CHECKS.has(origin.name)) {
        this.diagnostics.error(decorator, site.path,
          `${source} checks text, but the method receives ${property.getName()} as a ${converted} built from the ${converted === 'Date' ? 'RFC 3339 date-time' : 'URI'} the schema checks; ${converted === 'Date' ? 'use @IsDate()' : 'use @IsInstance(URL)'} or remove it.`);
      }
    }
    if (!validatesNested && holdsClass(plan, this.shapes, this.pending, this.shapeNames)) {
      this.diagnostics.warning(site.node, site.path,
        `${typeText} is a class whose class-validator decorators only run with @ValidateNested(); add it (the schema check covers what the schema states, not custom constraints).`);
    }
  }

  /** `@Type(() => X)`: class-transformer's own hint must name the class the type says. */
  private checkTypeDecorator(decorator: Decorator, type: ts.Type, typeText: string, site: Site): void {
    const factory = decorator.getArguments()[0];
    const body = factory && (Node.isArrowFunction(factory) || Node.isFunctionExpression(factory)) ? factory.getBody() : undefined;
    const expression = body && Node.isExpression(body) && !Node.isBlock(body) ? body : undefined;
    const symbol = expression?.getSymbol();
    const named = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
    if (!named) return;
    const wrapper = PRIMITIVE_WRAPPERS[named.getName()];
    if (wrapper && (type.isUnion() ? type.types : [type]).some(wrapper)) return;
    const expected = valueClassSymbols(type, this.checker);
    if (expected.some((s) => s === named.compilerSymbol)) return;
    this.diagnostics.error(decorator, site.path,
      `@Type(() => ${named.getName()}) disagrees with the type ${typeText}; toolwright builds ${typeText} from the type, so fix the type or remove @Type.`);
  }

  private reserveName(type: ts.Type): string {
    const base = ((type.aliasSymbol ?? type.getSymbol())?.getName() ?? '').replace(/[^A-Za-z0-9_]/g, '') || 'Object';
    const taken = new Set(this.shapeNames.values());
    let name = base === '__type' || base === '__object' ? 'Object' : base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    return name;
  }

  private finish(root: ShapePlanModel): InstancePlanModel {
    const { class: _class, ...rest } = root;
    const shapes = [...this.shapes.entries()].sort(([a], [b]) => a.localeCompare(b));
    return shapes.length > 0 ? { ...rest, shapes: Object.fromEntries(shapes) } : rest;
  }
}

function isPrimitive(type: ts.Type): boolean {
  return hasFlag(type, ts.TypeFlags.String) || hasFlag(type, ts.TypeFlags.Number) || hasFlag(type, ts.TypeFlags.Boolean) || isLiteralType(type) || hasFlag(type, ts.TypeFlags.TemplateLiteral);
}

/**
 * An interface built on `Array` (`interface Tags extends Array<Tag>`): an array, item by item.
 * Its own properties only (the compiler's `getProperty` would also find `Function`'s members on
 * a callable type).
 */
function isArrayLike(type: ts.Type): boolean {
  return type.getNumberIndexType() !== undefined && type.getProperties().some((p) => p.escapedName === 'length') && type.getStringIndexType() === undefined;
}

/** `[Symbol.iterator]` and the like: never a JSON key. */
function isSymbolKeyed(property: ts.Symbol): boolean {
  return property.escapedName.toString().startsWith('__@');
}

function librarySymbolName(type: ts.Type): string | undefined {
  const symbol = type.getSymbol();
  const name = symbol?.getName();
  if (name !== 'Date' && name !== 'URL') return undefined;
  return (symbol!.declarations ?? []).some((d) => d.getSourceFile().isDeclarationFile) ? name : undefined;
}

type JsonKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'any';

function jsonKind(type: ts.Type, checker: ts.TypeChecker): JsonKind {
  if (hasFlag(type, ts.TypeFlags.String) || type.isStringLiteral() || hasFlag(type, ts.TypeFlags.TemplateLiteral) || librarySymbolName(type)) return 'string';
  if (hasFlag(type, ts.TypeFlags.Number) || hasFlag(type, ts.TypeFlags.NumberLiteral)) return 'number';
  if (hasFlag(type, ts.TypeFlags.Boolean) || isBooleanLiteral(type)) return 'boolean';
  if (isEnumLiteral(type)) return typeof (type as ts.LiteralType).value === 'string' ? 'string' : 'number';
  if (isArrayType(type, checker) || isTupleType(type)) return 'array';
  if (isObjectLike(type)) return 'object';
  return 'any';
}

function isObjectPlan(plan: ValuePlanModel): boolean {
  if (typeof plan !== 'object') return false;
  if ('shape' in plan) return true;
  if ('array' in plan) return isObjectPlan(plan.array);
  return plan.tuple.some(isObjectPlan);
}

function hasObjectMember(type: ts.Type, checker: ts.TypeChecker): boolean {
  const members = type.isUnion() ? type.types : [type];
  return members.some((m) => {
    const element = isArrayType(m, checker) ? arrayElementType(m, checker) : m;
    return element !== undefined && isObjectLike(element) && !librarySymbolName(element);
  });
}

/** Whether the value holds instances of a class (directly, in an array, in a union). */
function holdsClass(plan: ValuePlanModel, shapes: Map<string, ShapePlanModel>, pending: Set<ts.Type>, names: Map<ts.Type, string>): boolean {
  if (typeof plan !== 'object') return false;
  if ('array' in plan) return holdsClass(plan.array, shapes, pending, names);
  if ('tuple' in plan) return plan.tuple.some((p) => holdsClass(p, shapes, pending, names));
  const shape = shapes.get(plan.shape);
  if (shape) return shape.class !== undefined;
  // Still being planned (a recursive type): a class if its declaration is one.
  for (const key of pending) {
    if (names.get(key) === plan.shape) return (key.symbol?.declarations ?? []).some((d) => ts.isClassDeclaration(d));
  }
  return false;
}

/** The class symbols a property's type may hold: itself, its array element, its union members. */
function valueClassSymbols(type: ts.Type, checker: ts.TypeChecker): ts.Symbol[] {
  const members = type.isUnion() ? type.types : [type];
  return members.flatMap((m) => {
    const element = isArrayType(m, checker) ? arrayElementType(m, checker) : m;
    const symbol = element?.getSymbol();
    return symbol ? [symbol] : [];
  });
}
