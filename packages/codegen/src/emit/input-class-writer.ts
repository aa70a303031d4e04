import { isSchema, typesOf, type JsonSchema } from '../schema/json-schema';
import type { InstancePlanModel, ValuePlanModel } from '../model/tool-model';
import type { ImportTable } from './import-table';
import { propertyKey, tsLiteral } from './ts-literal';

const CLASS_VALIDATOR = 'class-validator';

/**
 * Writes the input class of a `@Param` tool. The schema check has already enforced every rule the
 * schema states, so a property needs a decorator only where a parameter is one of the user's DTO
 * classes: `@ValidateNested()` makes class-validator run that class's decorators. The others are
 * bare declarations, so importing the module registers nothing per tool; core whitelists them on
 * the tool's first call, from the entry's `parameters`, as `@Allow()` would have.
 */
export class InputClassWriter {
  private readonly classes: string[] = [];

  constructor(private readonly imports: ImportTable) {}

  /** Declares the class and returns its name; `classOf` names the imported class of a shape. */
  writeClass(name: string, schema: JsonSchema, plan: InstancePlanModel, classOf: (shape: string) => string | undefined): string {
    const className = this.imports.reserve(name);
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    const members = Object.entries(properties).map(([key, property]) => {
      const valuePlan = plan.properties?.[key] ?? 'json';
      const decorator = holdsClass(valuePlan, classOf) ? `  @${this.imports.use(CLASS_VALIDATOR, 'ValidateNested')}()\n` : '';
      const type = tsType(property, valuePlan, classOf);
      return `${decorator}  ${propertyKey(key)}${required.has(key) ? '!' : '?'}: ${type};`;
    });
    this.classes.push(`export class ${className} {\n${members.join('\n')}${members.length > 0 ? '\n' : ''}}`);
    return className;
  }

  get classSource(): string {
    return this.classes.join('\n\n');
  }
}

function holdsClass(plan: ValuePlanModel, classOf: (shape: string) => string | undefined): boolean {
  if (typeof plan !== 'object') return false;
  if ('array' in plan) return holdsClass(plan.array, classOf);
  if ('tuple' in plan) return plan.tuple.some((p) => holdsClass(p, classOf));
  return classOf(plan.shape) !== undefined;
}

/** The TypeScript type of a generated property: what the method receives, `unknown` where it is not simple. */
function tsType(schema: JsonSchema, plan: ValuePlanModel, classOf: (shape: string) => string | undefined): string {
  const nullable = typesOf(schema).includes('null') || (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((s) => s.type === 'null'));
  const value = valueType(schema, plan, classOf);
  return nullable && value !== 'unknown' ? `${value} | null` : value;
}

function valueType(schema: JsonSchema, plan: ValuePlanModel, classOf: (shape: string) => string | undefined): string {
  if (plan === 'date') return 'Date';
  if (plan === 'url') return 'URL';
  if (typeof plan === 'object' && 'shape' in plan) return classOf(plan.shape) ?? 'Record<string, unknown>';
  if (typeof plan === 'object' && 'array' in plan) {
    const item = valueType(isSchema(schema.items) ? schema.items : {}, plan.array, classOf);
    return /[ |]/.test(item) ? `Array<${item}>` : `${item}[]`;
  }
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).filter((v) => v !== null).map((v) => tsLiteral(v)).join(' | ');
  const types = typesOf(schema).filter((t) => t !== 'null');
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
      const item = valueType(schema.items, 'json', classOf);
      return /[ |]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case 'object':
      return 'Record<string, unknown>';
    default:
      return 'unknown';
  }
}
