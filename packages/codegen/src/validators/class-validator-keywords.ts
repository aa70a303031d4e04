import { Node, type Decorator } from 'ts-morph';
import type { Diagnostics } from '../lint/diagnostic';
import { CLASS_TRANSFORMER, CLASS_VALIDATOR, decoratorOrigin } from '../scan/decorator-origin';
import { evaluateLiteral, isRegexValue, type Evaluated, type LiteralValue } from '../scan/literal-value';
import { patternProblem } from '../schema/formats';
import type { Keyword } from '../schema/keywords';

type Args = LiteralValue[];
type Mapping = (args: Args) => Array<[string, unknown]> | string;

const FORMAT: Record<string, string> = {
  IsEmail: 'email',
  IsUrl: 'uri',
  IsUUID: 'uuid',
  IsDateString: 'date-time',
  IsISO8601: 'date-time',
};

const isNumber = (v: unknown): v is number => typeof v === 'number';

/** class-validator decorator → the JSON Schema keywords that say the same thing. */
const MAPPINGS: Record<string, Mapping> = {
  IsString: () => [['type', 'string']],
  IsInt: () => [['type', 'integer']],
  IsNumber: () => [['type', 'number']],
  IsBoolean: () => [['type', 'boolean']],
  IsArray: () => [['type', 'array']],
  Min: ([n]) => (isNumber(n) ? [['minimum', n]] : 'expects a number'),
  Max: ([n]) => (isNumber(n) ? [['maximum', n]] : 'expects a number'),
  IsPositive: () => [['exclusiveMinimum', 0]],
  Length: ([min, max]) =>
    isNumber(min) ? [['minLength', min], ...(isNumber(max) ? [['maxLength', max] as [string, unknown]] : [])] : 'expects numbers',
  MinLength: ([n]) => (isNumber(n) ? [['minLength', n]] : 'expects a number'),
  MaxLength: ([n]) => (isNumber(n) ? [['maxLength', n]] : 'expects a number'),
  ArrayMinSize: ([n]) => (isNumber(n) ? [['minItems', n]] : 'expects a number'),
  ArrayMaxSize: ([n]) => (isNumber(n) ? [['maxItems', n]] : 'expects a number'),
  ArrayUnique: () => [['uniqueItems', true]],
  IsIn: ([values]) => (Array.isArray(values) ? [['enum', values]] : 'expects an array of values'),
  Matches: ([pattern]) => {
    const source = isRegexValue(pattern) ? pattern.regex : typeof pattern === 'string' ? pattern : undefined;
    if (source === undefined) return 'expects a regular expression';
    const problem = patternProblem(source);
    return problem ? `has a pattern that does not compile as a Unicode regular expression (${problem})` : [['pattern', source]];
  },
  ...Object.fromEntries(Object.entries(FORMAT).map(([name, format]) => [name, () => [['format', format]] as Array<[string, unknown]>])),
};

/** Decorators that shape validation but have no keyword of their own. */
const STRUCTURAL = new Set(['ValidateNested', 'IsOptional', 'IsEnum', 'IsObject', 'IsDefined', 'Allow', 'ValidateIf', 'IsNotEmptyObject']);

/** How many leading arguments are the constraint's values (the rest are options). */
const VALUE_ARGUMENTS: Record<string, number> = { Min: 1, Max: 1, Length: 2, MinLength: 1, MaxLength: 1, ArrayMinSize: 1, ArrayMaxSize: 1, IsIn: 1, Matches: 1 };

export interface ValidatorReading {
  keywords: Keyword[];
  /** `@IsOptional()`: the property may be left out. */
  optional: boolean;
  /** At least one class-validator decorator: without one, whitelisting rejects the property. */
  validated: boolean;
}

/** What a DTO property's class-validator decorators say, as schema keywords. */
export function keywordsFromValidators(decorators: readonly Decorator[], diagnostics: Diagnostics, path: readonly string[]): ValidatorReading {
  const reading: ValidatorReading = { keywords: [], optional: false, validated: false };
  for (const decorator of decorators) {
    const origin = decoratorOrigin(decorator);
    if (origin?.packageName === CLASS_TRANSFORMER) continue;
    if (origin?.packageName !== CLASS_VALIDATOR) continue;
    reading.validated = true;
    const source = `@${origin.name}()`;
    const args = decorator.getArguments();
    const each = args.some(isEachOption);
    if (origin.name === 'IsOptional') reading.optional = true;
    if (origin.name === 'IsEnum') {
      const values = enumValues(args[0]);
      if (values) reading.keywords.push({ name: 'enum', value: values, node: decorator, source, each });
      else diagnostics.warning(decorator, path, `${source}: the enum could not be read at build time; the schema does not list its values. Pass the enum itself.`);
      continue;
    }
    const mapping = MAPPINGS[origin.name];
    if (!mapping) {
      if (!STRUCTURAL.has(origin.name)) {
        diagnostics.warning(decorator, path, `${source} is checked at run time but has no JSON Schema equivalent; say it in the property's JSDoc so the model knows.`);
      }
      continue;
    }
    const valueArgs = args.slice(0, VALUE_ARGUMENTS[origin.name] ?? 0);
    const evaluated = valueArgs.map((arg) => evaluateLiteral(arg));
    const unreadable = valueArgs.find((_, i) => !evaluated[i].ok);
    if (unreadable) {
      diagnostics.warning(unreadable, path, `${source}: argument "${unreadable.getText()}" is not a literal, so the schema cannot carry it; use a literal or a const.`);
      continue;
    }
    if (origin.name === 'Matches') warnAboutFlags(decorator, evaluated[0], diagnostics, path, source);
    const result = mapping(evaluated.map((e) => (e.ok ? e.value : null)));
    if (typeof result === 'string') {
      diagnostics.error(decorator, path, `${source} ${result}.`);
      continue;
    }
    for (const [name, value] of result) reading.keywords.push({ name, value, node: decorator, source, each });
  }
  return reading;
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
