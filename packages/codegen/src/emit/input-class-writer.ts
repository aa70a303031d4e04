import { pascalCase } from '../model/build-tool-model';
import { DATE_TYPE, isSchema, typesOf, type JsonSchema } from '../schema/json-schema';
import type { ImportTable } from './import-table';
import { propertyKey, quote, tsLiteral } from './ts-literal';

const CLASS_VALIDATOR = 'class-validator';
const CLASS_TRANSFORMER = 'class-transformer';
/** The run-time support of generated classes, imported so no module carries its own copy. */
const CORE_GENERATED = '@toolwright/core/generated';

/** class-validator decorator for a string `format`; formats without one are checked by nobody. */
const FORMAT_DECORATORS: Record<string, (name: string, options: string) => string> = {
  email: (d, o) => `${d}({}${o})`,
  uri: (d, o) => `${d}({ require_protocol: true }${o})`,
  uuid: (d, o) => `${d}(undefined${o})`,
  'date-time': (d, o) => `${d}({ strict: true }${o})`,
  date: (d, o) => `${d}({ strict: true }${o})`,
  ipv4: (d, o) => `${d}(4${o})`,
  ipv6: (d, o) => `${d}(6${o})`,
  hostname: (d, o) => `${d}({ require_tld: false }${o})`,
};
const FORMAT_DECORATOR_NAMES: Record<string, string> = {
  email: 'IsEmail', uri: 'IsUrl', uuid: 'IsUUID', 'date-time': 'IsISO8601', date: 'IsISO8601', ipv4: 'IsIP', ipv6: 'IsIP', hostname: 'IsFQDN',
};

/**
 * Writes class-validator classes that accept exactly what a tool's input schema accepts. Every
 * property gets at least one decorator, because the container validates with `whitelist` and
 * `forbidNonWhitelisted`, which refuse undecorated properties.
 */
export class InputClassWriter {
  private readonly classes: string[] = [];
  /** Requested nested class name → the name it got (unique in the module). */
  private readonly nestedNames = new Map<string, string>();

  constructor(private readonly imports: ImportTable) {}

  /**
   * Declares the class for an object schema (nested classes first, so decorator metadata never
   * meets a class before its declaration) and returns its name. `rootName` is the expression for
   * the root schema's `$defs`, for the checks that follow `$ref`s.
   */
  writeClass(name: string, schema: JsonSchema, rootName: string): string {
    const className = this.imports.reserve(name);
    this.nestedNames.set(name, className);
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    const members = Object.entries(properties).map(([key, property]) =>
      this.property(className, key, property, required.has(key), rootName),
    );
    this.classes.push(`export class ${className} {\n${members.join('\n\n')}${members.length > 0 ? '\n' : ''}}`);
    return className;
  }

  get classSource(): string {
    return this.classes.join('\n\n');
  }

  private property(className: string, key: string, schema: JsonSchema, required: boolean, rootName: string): string {
    const { value, nullable } = splitNull(schema);
    const nestedName = `${className}${pascalCase(key)}`;
    const decorators = this.valueDecorators(value, false, nestedName, rootName) ?? [this.matchesSchema(value, false, rootName)];
    const presence = this.presence(required, nullable, decorators.length === 0);
    const type = `${tsType(value, nestedName, (n) => this.nestedNames.get(n) ?? n)}${nullable ? ' | null' : ''}`;
    const lines = [...presence, ...decorators].map((d) => `  @${d}`);
    return `${lines.join('\n')}\n  ${propertyKey(key)}${required ? '!' : '?'}: ${type};`;
  }

  /** Whether the property may be missing or null, in class-validator's terms. */
  private presence(required: boolean, nullable: boolean, noOtherCheck: boolean): string[] {
    if (!required && nullable) return [`${this.cv('IsOptional')}()`];
    if (!required) return [`${this.cv('ValidateIf')}((_object, value) => value !== undefined)`, ...(noOtherCheck ? [`${this.cv('Allow')}()`] : [])];
    if (nullable) return [`${this.cv('ValidateIf')}((_object, value) => value !== null)`, ...(noOtherCheck ? [`${this.cv('IsDefined')}()`] : [])];
    return noOtherCheck ? [`${this.cv('IsDefined')}()`] : [];
  }

  /** The decorators for a value (or, with `each`, for every item); `undefined` when they cannot say it. */
  private valueDecorators(schema: JsonSchema, each: boolean, nestedName: string, rootName: string): string[] | undefined {
    const o = each ? ', { each: true }' : '';
    const only = each ? '{ each: true }' : '';
    if (Object.keys(schema).length === 0) return [];
    if ((schema as { [DATE_TYPE]?: true })[DATE_TYPE]) return this.dateDecorators(each);
    if (schema.$ref || schema.anyOf || schema.allOf) return undefined;
    if (Array.isArray(schema.enum)) return [`${this.cv('IsIn')}(${tsLiteral(schema.enum)}${o})`];
    if (schema.const !== undefined) return [`${this.cv('Equals')}(${tsLiteral(schema.const)}${o})`];
    const types = typesOf(schema);
    if (types.length !== 1) return undefined;
    const decorators: string[] = [];
    switch (types[0]) {
      case 'string':
        decorators.push(`${this.cv('IsString')}(${only})`);
        if (typeof schema.minLength === 'number') decorators.push(`${this.cv('MinLength')}(${schema.minLength}${o})`);
        if (typeof schema.maxLength === 'number') decorators.push(`${this.cv('MaxLength')}(${schema.maxLength}${o})`);
        if (typeof schema.pattern === 'string') decorators.push(`${this.cv('Matches')}(new RegExp(${quote(schema.pattern)}, 'u')${o})`);
        if (typeof schema.format === 'string' && FORMAT_DECORATORS[schema.format]) {
          decorators.push(FORMAT_DECORATORS[schema.format](this.cv(FORMAT_DECORATOR_NAMES[schema.format]), o));
        }
        return decorators;
      case 'integer':
      case 'number':
        decorators.push(types[0] === 'integer' ? `${this.cv('IsInt')}(${only})` : `${this.cv('IsNumber')}({ allowNaN: false, allowInfinity: false }${o})`);
        if (typeof schema.minimum === 'number') decorators.push(`${this.cv('Min')}(${schema.minimum}${o})`);
        if (typeof schema.maximum === 'number') decorators.push(`${this.cv('Max')}(${schema.maximum}${o})`);
        if (typeof schema.exclusiveMinimum === 'number') decorators.push(this.check('exclusiveMinimum', `must be greater than ${schema.exclusiveMinimum}`, `typeof value === 'number' && value > ${schema.exclusiveMinimum}`, each));
        if (typeof schema.exclusiveMaximum === 'number') decorators.push(this.check('exclusiveMaximum', `must be less than ${schema.exclusiveMaximum}`, `typeof value === 'number' && value < ${schema.exclusiveMaximum}`, each));
        if (typeof schema.multipleOf === 'number') decorators.push(this.check('multipleOf', `must be a multiple of ${schema.multipleOf}`, `typeof value === 'number' && value % ${schema.multipleOf} === 0`, each));
        return decorators;
      case 'boolean':
        return [`${this.cv('IsBoolean')}(${only})`];
      case 'array':
        return each ? undefined : this.arrayDecorators(schema, nestedName, rootName);
      case 'object':
        return this.objectDecorators(schema, each, nestedName, rootName);
      default:
        return undefined;
    }
  }

  private arrayDecorators(schema: JsonSchema, nestedName: string, rootName: string): string[] | undefined {
    if (schema.prefixItems !== undefined || !isSchema(schema.items)) return undefined;
    const items = this.valueDecorators(schema.items, true, `${nestedName}Item`, rootName);
    if (!items) return undefined;
    const decorators = [`${this.cv('IsArray')}()`];
    if (typeof schema.minItems === 'number') decorators.push(`${this.cv('ArrayMinSize')}(${schema.minItems})`);
    if (typeof schema.maxItems === 'number') decorators.push(`${this.cv('ArrayMaxSize')}(${schema.maxItems})`);
    if (schema.uniqueItems === true) {
      decorators.push(typesOf(schema.items).some((t) => t === 'object' || t === 'array')
        ? this.check('uniqueItems', 'must not contain the same item twice', 'Array.isArray(value) && new Set(value.map((item) => JSON.stringify(item))).size === value.length', false)
        : `${this.cv('ArrayUnique')}()`);
    }
    return [...decorators, ...items];
  }

  /** A plain object becomes a nested class; records and open objects are checked by schema. */
  private objectDecorators(schema: JsonSchema, each: boolean, nestedName: string, rootName: string): string[] | undefined {
    if (schema.additionalProperties !== false) return undefined;
    const nested = this.writeClass(nestedName, schema, rootName);
    const options = each ? '{ each: true }' : '';
    return [`${this.cv('IsObject')}(${options})`, `${this.cv('ValidateNested')}(${options})`, `${this.ct('Type')}(() => ${nested})`];
  }

  private dateDecorators(each: boolean): string[] {
    const toDate = this.runtime('toDate');
    const transform = each
      ? `${this.ct('Transform')}(({ value }) => (Array.isArray(value) ? value.map(${toDate}) : value))`
      : `${this.ct('Transform')}(({ value }) => ${toDate}(value))`;
    return [transform, `${this.cv('IsDate')}(${each ? '{ each: true }' : ''})`];
  }

  private matchesSchema(schema: JsonSchema, each: boolean, rootName: string): string {
    const test = `${this.runtime('matchesSchema')}(value, ${tsLiteral(stripDate(schema), '  ')}, ${rootName})`;
    return this.check('matchesSchema', 'does not match the input schema of the tool', test, each);
  }

  private check(name: string, message: string, test: string, each: boolean): string {
    return `${this.runtime('Check')}(${quote(name)}, ${quote(message)}, (value) => ${test}${each ? ', { each: true }' : ''})`;
  }

  private cv(name: string): string {
    return this.imports.use(CLASS_VALIDATOR, name);
  }

  private ct(name: string): string {
    return this.imports.use(CLASS_TRANSFORMER, name);
  }

  private runtime(name: 'Check' | 'matchesSchema' | 'toDate'): string {
    return this.imports.use(CORE_GENERATED, name);
  }
}

/** `T | null` → `T` and whether null is allowed, for `type: [T, "null"]` and `anyOf [T, null]`. */
function splitNull(schema: JsonSchema): { value: JsonSchema; nullable: boolean } {
  const types = typesOf(schema);
  if (types.includes('null') && types.length > 1) {
    const rest = types.filter((t) => t !== 'null');
    const value: JsonSchema = { ...schema, type: rest.length === 1 ? rest[0] : rest };
    if (Array.isArray(schema.enum)) value.enum = (schema.enum as unknown[]).filter((v) => v !== null);
    if ((schema as { [DATE_TYPE]?: true })[DATE_TYPE]) (value as { [DATE_TYPE]?: true })[DATE_TYPE] = true;
    return { value, nullable: true };
  }
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf?.some((s) => s.type === 'null')) {
    const rest = anyOf.filter((s) => s.type !== 'null');
    const { anyOf: _anyOf, ...others } = schema;
    return { value: rest.length === 1 ? { ...rest[0], ...others } : { ...others, anyOf: rest }, nullable: true };
  }
  return { value: schema, nullable: false };
}

/** A plain JSON copy: the `Date` marker is a symbol and stays behind. */
function stripDate(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

/** The TypeScript type of a generated property: informative where simple, `unknown` elsewhere. */
function tsType(schema: JsonSchema, nestedName: string, classNamed: (requested: string) => string): string {
  if ((schema as { [DATE_TYPE]?: true })[DATE_TYPE]) return 'Date';
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((v) => tsLiteral(v)).join(' | ');
  const types = typesOf(schema);
  if (types.length !== 1 || schema.anyOf || schema.$ref) return 'unknown';
  switch (types[0]) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      if (!isSchema(schema.items) || schema.prefixItems) return 'unknown[]';
      const item = tsType(schema.items, `${nestedName}Item`, classNamed);
      return /[ |]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case 'object':
      return schema.additionalProperties === false ? classNamed(nestedName) : 'Record<string, unknown>';
    default:
      return 'unknown';
  }
}
