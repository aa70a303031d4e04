import { Node, type Decorator, type Type } from 'ts-morph';
import type { Diagnostics } from '../lint/diagnostic';
import { readDocComment } from '../jsdoc/read-jsdoc';
import { CLASS_TRANSFORMER, CLASS_VALIDATOR, TOOLWRIGHT_CORE, decoratorOrigin } from '../scan/decorator-origin';
import { evaluateLiteral, isRegexValue, type Evaluated, type LiteralValue } from '../scan/literal-value';
import { patternProblem } from '../schema/formats';
import type { Keyword } from '../schema/keywords';
import { RULE_NOTE_PREFIX } from './rule-notes';

type Args = LiteralValue[];
type Entries = Array<[string, unknown]>;
/** The keywords a decorator becomes, a problem with its arguments, and what it checks beyond them. */
type Reading = { keywords: Entries; stricter?: string } | string;
type Mapping = (args: Args, context: { property: Type | undefined }) => Reading;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isOptions = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !isRegexValue(v);
const count = (name: string) => ([n]: Args): Reading => (isNumber(n) && Number.isInteger(n) && n >= 0 ? { keywords: [[name, n]] } : 'expects a whole number of 0 or more');
const bound = (name: string) => ([n]: Args): Reading => (isNumber(n) ? { keywords: [[name, n]] } : 'expects a number');

/** class-validator's own regexes, as JSON Schema patterns (no flags: case folded by hand). */
const UUID_PATTERNS: Record<string, string> = {
  ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((v) => [String(v), `^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-${v}[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$`])),
  nil: '^00000000-0000-0000-0000-000000000000$',
  max: '^[Ff]{8}-[Ff]{4}-[Ff]{4}-[Ff]{4}-[Ff]{12}$',
  loose: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$',
  all: '^(?:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[1-8][0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}|00000000-0000-0000-0000-000000000000|[Ff]{8}-[Ff]{4}-[Ff]{4}-[Ff]{4}-[Ff]{12})$',
};

/**
 * The RFC 3339 date-times validator's ISO 8601 regex also accepts: an upper-case `T` or a space,
 * seconds up to 59. With `format: date-time` this is exactly what both sides accept.
 */
const ISO8601_DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:[0-5]\\d(?:[.,]\\d+)?(?:[Zz]|[+-]\\d{2}:\\d{2})$';

/** class-validator decorator → the tightest JSON Schema keywords for it, and the rule it adds beyond them. */
const MAPPINGS: Record<string, Mapping> = {
  IsString: () => ({ keywords: [['type', 'string']] }),
  IsInt: () => ({ keywords: [['type', 'integer']] }),
  IsNumber: ([options]) => {
    const places = isOptions(options) ? options.maxDecimalPlaces : undefined;
    return { keywords: [['type', 'number'], ...(isNumber(places) ? [['multipleOf', 10 ** -places] as [string, unknown]] : [])] };
  },
  IsBoolean: () => ({ keywords: [['type', 'boolean']] }),
  IsArray: () => ({ keywords: [['type', 'array']] }),
  IsObject: () => ({ keywords: [['type', 'object']] }),
  Min: bound('minimum'),
  Max: bound('maximum'),
  IsPositive: () => ({ keywords: [['exclusiveMinimum', 0]] }),
  IsNegative: () => ({ keywords: [['exclusiveMaximum', 0]] }),
  IsDivisibleBy: ([n]) => {
    if (!isNumber(n) || n <= 0) return 'expects a number above 0';
    return Number.isInteger(n)
      ? { keywords: [['multipleOf', n]] }
      : { keywords: [['multipleOf', n]], stricter: `a multiple of ${n} as binary floating point computes it, which refuses some decimal multiples` };
  },
  Length: ([min, max]) => (isNumber(min) ? { keywords: [['minLength', min], ...(isNumber(max) ? [['maxLength', max] as [string, unknown]] : [])] } : 'expects numbers'),
  MinLength: count('minLength'),
  MaxLength: count('maxLength'),
  IsNotEmpty: (_args, { property }) => (property && isStringType(property) ? { keywords: [['minLength', 1]] } : { keywords: [] }),
  ArrayMinSize: count('minItems'),
  ArrayMaxSize: count('maxItems'),
  ArrayNotEmpty: () => ({ keywords: [['minItems', 1]] }),
  ArrayUnique: () => ({ keywords: [['uniqueItems', true]] }),
  IsNotEmptyObject: () => ({ keywords: [['type', 'object'], ['minProperties', 1]] }),
  Equals: ([value]) => ({ keywords: [['const', value]] }),
  NotEquals: ([value]) => ({ keywords: [['not', { const: value }]] }),
  IsIn: ([values]) => (Array.isArray(values) ? { keywords: [['enum', values]] } : 'expects an array of values'),
  IsNotIn: ([values]) => (Array.isArray(values) ? { keywords: [['not', { enum: values }]] } : 'expects an array of values'),
  Matches: ([pattern]) => {
    const source = isRegexValue(pattern) ? pattern.regex : typeof pattern === 'string' ? pattern : undefined;
    if (source === undefined) return 'expects a regular expression';
    const problem = patternProblem(source);
    if (problem) return `has a pattern that does not compile as a Unicode regular expression (${problem})`;
    // class-validator tests without the `u` flag: `.` or a negated class then sees half an emoji.
    return /\.|\\[DSW]|\[\^/.test(source.replace(/\\\\|\\\./g, ''))
      ? { keywords: [['pattern', source]], stricter: `the pattern is matched on UTF-16 code units, so emoji and other characters outside the Basic Multilingual Plane may not match` }
      : { keywords: [['pattern', source]] };
  },
  IsEmail: ([options]) => ({
    keywords: [['type', 'string'], ['format', 'email']],
    stricter: `an e-mail address whose local part has at most 64 bytes and whose domain has at most 254 and a top-level domain${isOptions(options) && options.allow_display_name ? ' (a display name is allowed)' : ''}`,
  }),
  IsUrl: ([options]) => ({ keywords: [['type', 'string'], ['format', 'uri']], stricter: urlRule(isOptions(options) ? options : {}) }),
  IsUUID: ([version]) => {
    const pattern = UUID_PATTERNS[version === undefined || version === null ? 'all' : String(version)];
    return pattern ? { keywords: [['type', 'string'], ['format', 'uuid'], ['pattern', pattern]] } : 'expects a UUID version (1 to 8, "all", "loose", "nil" or "max")';
  },
  IsDateString: () => ({ keywords: [['type', 'string'], ['format', 'date-time'], ['pattern', ISO8601_DATE_TIME]] }),
  IsISO8601: () => ({ keywords: [['type', 'string'], ['format', 'date-time'], ['pattern', ISO8601_DATE_TIME]] }),
  IsRFC3339: () => ({ keywords: [['type', 'string'], ['format', 'date-time'], ['pattern', ISO8601_DATE_TIME]] }),
  IsAlpha: () => ({ keywords: [['type', 'string'], ['pattern', '^[A-Za-z]+$']] }),
  IsAlphanumeric: () => ({ keywords: [['type', 'string'], ['pattern', '^[0-9A-Za-z]+$']] }),
  IsNumberString: () => ({ keywords: [['type', 'string'], ['pattern', '^[+-]?(?:[0-9]*\\.)?[0-9]+$']] }),
  IsHexadecimal: () => ({ keywords: [['type', 'string'], ['pattern', '^(?:0x|0h)?[0-9A-Fa-f]+$']] }),
};

/** What validator.js's isURL requires beyond an RFC 3986 URI, in words, for the options given. */
function urlRule(options: Record<string, unknown>): string {
  const protocols = Array.isArray(options.protocols) ? (options.protocols as unknown[]).map(String) : ['http', 'https', 'ftp'];
  const parts = [`scheme ${protocols.join(', ')}`];
  if (options.require_tld !== false) parts.push('a host name with a top-level domain (not localhost) or an IP address');
  if (options.require_port === true) parts.push('a port');
  if (options.allow_underscores !== true) parts.push('no underscore in the host');
  parts.push('at most 2084 characters');
  return `a web URL: ${parts.join('; ')}`;
}

/** Decorators that shape validation but add no rule of their own. */
const STRUCTURAL = new Set(['ValidateNested', 'IsOptional', 'IsEnum', 'IsDefined', 'Allow', 'ValidateIf', 'IsDate', 'IsInstance', 'ValidatePromise', 'IsEmpty']);

/** How many leading arguments are the constraint's values (the rest are options). */
const VALUE_ARGUMENTS: Record<string, number> = {
  Min: 1, Max: 1, Length: 2, MinLength: 1, MaxLength: 1, ArrayMinSize: 1, ArrayMaxSize: 1, IsIn: 1, IsNotIn: 1, Matches: 1,
  IsDivisibleBy: 1, Equals: 1, NotEquals: 1, IsNumber: 1, IsEmail: 1, IsUrl: 1, IsUUID: 1,
};

export interface ValidatorReading {
  keywords: Keyword[];
  /** `@IsOptional()`: the property may be left out. */
  optional: boolean;
  /** At least one validation decorator: without one, whitelisting rejects the property. */
  validated: boolean;
}

/**
 * What a DTO property's decorators say, as schema keywords: the tightest each class-validator
 * decorator allows. A decorator stricter than any keyword (an `@IsUrl` option, `@IsEmail`'s
 * rules, a custom constraint) is a warning, and its rule in words joins the property's
 * description (through a rule note the model builder folds in), so the model is told.
 */
export function keywordsFromValidators(decorators: readonly Decorator[], diagnostics: Diagnostics, path: readonly string[]): ValidatorReading {
  const reading: ValidatorReading = { keywords: [], optional: false, validated: false };
  for (const decorator of decorators) {
    const origin = decoratorOrigin(decorator);
    if (origin?.packageName === CLASS_TRANSFORMER || origin?.packageName === TOOLWRIGHT_CORE) continue;
    const args = decorator.getArguments();
    const each = args.some(isEachOption);
    if (origin?.packageName !== CLASS_VALIDATOR) {
      if (isCustomConstraint(decorator)) {
        reading.validated = true;
        const { rule, advice } = customRule(decorator);
        note(reading, decorator, `@${decorator.getName()}()`, rule, each, diagnostics, path, advice);
      }
      continue;
    }
    reading.validated = true;
    const source = `@${origin.name}()`;
    if (origin.name === 'IsOptional') reading.optional = true;
    if (origin.name === 'IsDefined' && isOptionalProperty(decorator)) {
      note(reading, decorator, source, 'required and not null, although the type lets it be left out', each, diagnostics, path);
      continue;
    }
    if (origin.name === 'IsEnum') {
      const values = enumValues(args[0]);
      if (values) reading.keywords.push({ name: 'enum', value: values, node: decorator, source, each });
      else diagnostics.warning(decorator, path, `${source}: the enum could not be read at build time; the schema does not list its values. Pass the enum itself.`);
      continue;
    }
    if (origin.name === 'Validate') {
      const { rule, advice } = customRule(decorator);
      note(reading, decorator, source, rule, each, diagnostics, path, advice);
      continue;
    }
    const mapping = MAPPINGS[origin.name];
    if (!mapping) {
      if (!STRUCTURAL.has(origin.name)) note(reading, decorator, source, `must pass the ${origin.name} check`, each, diagnostics, path);
      continue;
    }
    const valueArgs = args.slice(0, VALUE_ARGUMENTS[origin.name] ?? 0);
    const evaluated = valueArgs.map((arg) => evaluateLiteral(arg));
    const unreadable = valueArgs.find((arg, i) => !evaluated[i].ok && !isEachOption(arg));
    if (unreadable) {
      diagnostics.warning(unreadable, path, `${source}: argument "${unreadable.getText()}" is not a literal, so the schema cannot carry it; use a literal or a const.`);
      continue;
    }
    if (origin.name === 'Matches') warnAboutFlags(decorator, evaluated[0], diagnostics, path, source);
    const result = mapping(evaluated.map((e) => (e.ok ? e.value : null)), { property: propertyType(decorator, each) });
    if (typeof result === 'string') {
      diagnostics.error(decorator, path, `${source} ${result}.`);
      continue;
    }
    for (const [name, value] of result.keywords) reading.keywords.push({ name, value, node: decorator, source, each });
    if (result.stricter) note(reading, decorator, source, result.stricter, each, diagnostics, path);
  }
  return reading;
}

/** A rule no keyword can state: a warning, and a note for the property's description. */
function note(reading: ValidatorReading, decorator: Decorator, source: string, rule: string, each: boolean, diagnostics: Diagnostics, path: readonly string[], advice?: string): void {
  diagnostics.warning(decorator, path, `${source} is stricter than any JSON Schema keyword (${rule}); the property's description says so, so the model is told before it is refused${advice ? `; ${advice}` : ''}.`);
  reading.keywords.push({ name: `${RULE_NOTE_PREFIX}${source}`, value: `Also: ${rule}.`, node: decorator, source, each });
}

/** A decorator of the user's own (made with `registerDecorator` or `ValidateBy`): a custom constraint. */
function isCustomConstraint(decorator: Decorator): boolean {
  const declaration = calleeDeclaration(decorator);
  return declaration !== undefined && !declaration.getSourceFile().isInNodeModules() &&
    /\b(registerDecorator|ValidateBy|Validate)\s*\(/.test(declaration.getText());
}

/** The rule in words: the JSDoc of the decorator (or of the constraint class given to `@Validate`). */
function customRule(decorator: Decorator): { rule: string; advice?: string } {
  const target = decorator.getName() === 'Validate' ? decorator.getArguments()[0] : undefined;
  const declaration = target ? declarationOf(target) : calleeDeclaration(decorator);
  const text = declaration ? readDocComment(declaration).description : '';
  if (text) return { rule: text.replace(/[.\s]+$/, '') };
  return {
    rule: `must pass the custom check ${target?.getText() ?? decorator.getName()}`,
    advice: `write the rule in the JSDoc of ${target ? 'the constraint class' : 'the decorator'} and the description carries it in its place`,
  };
}

function calleeDeclaration(decorator: Decorator): Node | undefined {
  const callee = decorator.getCallExpression()?.getExpression() ?? decorator.getExpression();
  return declarationOf(callee);
}

function declarationOf(node: Node): Node | undefined {
  const symbol = node.getSymbol();
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  const declaration = target?.getDeclarations()[0];
  if (declaration && Node.isVariableDeclaration(declaration)) return declaration.getVariableStatement() ?? declaration;
  return declaration;
}

function propertyType(decorator: Decorator, each: boolean): Type | undefined {
  const property = decorator.getParent();
  if (!Node.isPropertyDeclaration(property)) return undefined;
  const type = property.getType();
  return each ? type.getArrayElementType() : type;
}

function isOptionalProperty(decorator: Decorator): boolean {
  const property = decorator.getParent();
  return Node.isPropertyDeclaration(property) && (property.hasQuestionToken() || property.getType().getUnionTypes().some((t) => t.isUndefined()));
}

function isStringType(type: Type): boolean {
  const members = type.isUnion() ? type.getUnionTypes().filter((t) => !t.isUndefined() && !t.isNull()) : [type];
  return members.length > 0 && members.every((t) => t.isString() || t.isStringLiteral() || t.isTemplateLiteral());
}

/** Patterns in JSON Schema have no flags: `/a/i` would mean something else to the model. */
function warnAboutFlags(decorator: Decorator, pattern: Evaluated, diagnostics: Diagnostics, path: readonly string[], source: string): void {
  const modifiers = decorator.getArguments()[1];
  const flags = (pattern.ok && isRegexValue(pattern.value) ? pattern.value.flags : '') +
    (modifiers && Node.isStringLiteral(modifiers) ? modifiers.getLiteralValue() : '');
  if (flags !== '') {
    diagnostics.warning(decorator, path, `${source}: JSON Schema patterns have no flags, so "${flags}" does not reach the schema the model sees; write the pattern without flags.`);
  }
}

/** `{ each: true }` among the arguments: the constraint is on every array item. */
function isEachOption(argument: Node): boolean {
  if (!Node.isObjectLiteralExpression(argument)) return false;
  const evaluated = evaluateLiteral(argument);
  return evaluated.ok && typeof evaluated.value === 'object' && evaluated.value !== null && (evaluated.value as { each?: unknown }).each === true;
}

/** `IsEnum(Status)`: the members' values, in declaration order. */
function enumValues(argument: Node | undefined): Array<string | number> | undefined {
  if (!argument) return undefined;
  const symbol = argument.getSymbol();
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  const declaration = target?.getDeclarations()[0];
  if (Node.isEnumDeclaration(declaration)) {
    const values = declaration.getMembers().map((m) => m.getValue());
    return values.every((v) => v !== undefined) ? (values as Array<string | number>) : undefined;
  }
  const evaluated = evaluateLiteral(argument);
  if (evaluated.ok && typeof evaluated.value === 'object' && evaluated.value !== null && !Array.isArray(evaluated.value)) {
    return Object.values(evaluated.value).filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  }
  return undefined;
}
