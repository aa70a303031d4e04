import { Allow, ValidationTypes, getMetadataStorage, validate, type ValidationError, type ValidatorOptions } from 'class-validator';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { Class, InstancePlan, ParameterBinding } from '../manifest/manifest.types';
import { checkPlainInput, type InputLimits } from './plain-input';
import { forgetListedKeys } from './listed-keys';
import type { CompiledInputCheck } from './compiled-check';
import { schemaCheck } from './schema-check';
import { instanceBuilder, UnconvertibleValue, type BuildInstance } from './build-instance';
import { unreachedInstances, type FindUnreached, type HeldInstance } from './unreached-instances';
import { describeSchemaErrors, describeValidationErrors, preview } from './describe-errors';
import { modelMessages } from '../execution/messages';

const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  // A tool without parameters has an input class without metadata; it must still accept `{}`.
  forbidUnknownValues: false,
};

/** What a tool's input is checked against and built into; the fields of a registered tool. */
export interface InputContract {
  name: string;
  definition: Tool;
  inputClass: Class;
  /** How the method's parameters are filled: the `@Param` properties are whitelisted when the tool is prepared. */
  parameters: readonly ParameterBinding[];
  /** The full schema, when the definition sends a strict subset of it. */
  inputSchema?: Tool.InputSchema;
  /** The schema's check compiled at build time; without it, Ajv compiles one on the first call. */
  inputCheck?: CompiledInputCheck;
  instancePlan?: InstancePlan;
}

export type InputCheck = { ok: true; value: object } | { ok: false; message: string };

/** What `buildInput` hands on: the instance, and whether class-validator must still judge it. */
export type BuiltInput = { ok: true; value: object; needsValidator: boolean } | { ok: false; message: string };

/** What a tool's input goes through, made once per tool (when a container is built, see `ToolPlan`). */
export interface PreparedInput {
  schema: Tool.InputSchema;
  check: CompiledInputCheck;
  build: BuildInstance;
  /** The instances class-validator cannot reach (held by records or plain objects), when the plan can hold any. */
  unreached?: FindUnreached;
  /** Whether class-validator can refuse anything the schema check passed (see `validatorFindsNothing`). */
  needsValidator: boolean;
}

/** What class-validator holds for one class. */
type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

const prepared = new WeakMap<InputContract, PreparedInput>();

function prepare(tool: InputContract): PreparedInput {
  let ready = prepared.get(tool);
  if (!ready) {
    const schema = tool.inputSchema ?? tool.definition.input_schema;
    const unreached = unreachedInstances(tool.instancePlan);
    const metadata = getMetadataStorage().getTargetValidationMetadatas(tool.inputClass, '', true, false);
    const needsValidator = unreached !== undefined || !validatorFindsNothing(metadata, tool.parameters, schema);
    // Only a class class-validator will judge needs its parameters whitelisted.
    if (needsValidator) whitelistParams(tool.inputClass, tool.parameters, metadata);
    const made: PreparedInput = {
      schema,
      check: tool.inputCheck ?? checkOnFirstCall(schema, (check) => (made.check = check)),
      build: instanceBuilder(tool.inputClass, tool.instancePlan),
      ...(unreached && { unreached }),
      needsValidator,
    };
    prepared.set(tool, (ready = made));
  }
  return ready;
}

/**
 * Without a compiled check, the run time's Ajv compiles one on the tool's first call: a container
 * prepares its tools when it is built, and an older manifest must not load Ajv before a call needs
 * it. The compiled check then takes this one's place (`replace`), so later calls call it directly.
 */
function checkOnFirstCall(schema: Tool.InputSchema, replace: (check: CompiledInputCheck) => void): CompiledInputCheck {
  const first: CompiledInputCheck = (input) => {
    const check = schemaCheck(schema);
    replace(check);
    const ok = check(input);
    first.errors = check.errors;
    return ok;
  };
  return first;
}

/**
 * The boundary, in the order DESIGN.md fixes: size limits, the exact schema check, the instance
 * built from the types, then the user's class-validator decorators. Nothing of the input reaches
 * the tool unchecked, and what the schema refuses is refused. The verdict is a plain value when
 * class-validator has nothing to judge: the executor then waits for no promise.
 */
export function validateInput(input: unknown, tool: InputContract, limits: InputLimits): InputCheck | Promise<InputCheck> {
  const built = buildInput(input, tool, limits);
  if (!built.ok || !built.needsValidator) return built;
  const instance = built.value;
  const held = prepare(tool).unreached?.(instance) ?? [];
  // Nothing held (the common case): one validation, without the `Promise.all` below.
  if (held.length === 0) return validate(instance, VALIDATOR_OPTIONS).then((errors) => judgeInput(tool, errors, instance));
  return Promise.all([validate(instance, VALIDATOR_OPTIONS), ...held.map((h) => validate(h.instance, VALIDATOR_OPTIONS).then((errors) => nestedErrors(h, errors)))])
    .then((all) => judgeInput(tool, all.flat(), instance));
}

/** The errors of an instance class-validator did not reach, under the keys that lead to it. */
function nestedErrors(held: HeldInstance, errors: ValidationError[]): ValidationError[] {
  // With no errors the wrapping holds no constraint and no child: `withoutTypeChecks` drops it.
  let wrapped = errors;
  for (let i = held.path.length - 1; i >= 0; i--) {
    wrapped = [{ property: held.path[i], children: wrapped, constraints: undefined } as unknown as ValidationError];
  }
  return wrapped;
}

/**
 * What the tool's input goes through, made once: when its `needsValidator` is false, `buildInput`
 * with it is the tool's whole boundary (class-validator could refuse nothing the check passed).
 */
export function prepareInput(tool: InputContract): PreparedInput {
  return prepare(tool);
}

/** The synchronous steps: limits, schema check, instance. */
export function buildInput(input: unknown, tool: InputContract, limits: InputLimits, ready: PreparedInput = prepare(tool)): BuiltInput {
  try {
    return checkAndBuild(input, tool, limits, ready);
  } finally {
    forgetListedKeys();
  }
}

function checkAndBuild(input: unknown, tool: InputContract, limits: InputLimits, ready: PreparedInput): BuiltInput {
  const refused = checkPlainInput(input, limits);
  if (refused) return { ok: false, message: refused };
  const { schema, check, build, needsValidator } = ready;
  if (!check(input)) {
    return { ok: false, message: modelMessages.invalidInput(tool.name, describeSchemaErrors(check.errors ?? [], schema, input)) };
  }
  try {
    return { ok: true, value: build(input as object), needsValidator };
  } catch (error) {
    if (!(error instanceof UnconvertibleValue)) throw error;
    return { ok: false, message: modelMessages.invalidInput(tool.name, [`- ${preview(error.value)} ${error.message}; send another value.`]) };
  }
}

/**
 * Registers for each `@Param` property the input class has no class-validator metadata for what
 * `@Allow()` registers: tools-codegen declares those properties bare, so importing the manifest
 * runs no decorator per tool, and only a tool class-validator will judge pays for it. A class that already
 * carries the metadata (a manifest generated with `@Allow()`, or one another container prepared)
 * is left as it is. An `@Input` DTO is the user's class: a property it leaves undecorated is still
 * refused by the whitelist, as class-validator always did.
 */
function whitelistParams(inputClass: Class, parameters: readonly ParameterBinding[], metadata: readonly ValidationMetadata[]): void {
  const described = new Set(metadata.map((m) => m.propertyName));
  for (const binding of parameters) {
    if (binding.kind !== 'param' || described.has(binding.property)) continue;
    Allow()(inputClass.prototype, binding.property);
  }
}

/**
 * True when class-validator, with the boundary's options, cannot refuse an instance built from
 * input the schema check passed: the class carries only whitelist metadata (`metadata`, plus what
 * `whitelistParams` would register for a generated `@Param` class), every property the schema
 * names is allowed, and the schema refuses any other key. Then whitelisting finds no stranger and
 * there is no constraint to fail; the instance keeps exactly the input's keys (`instanceBuilder`).
 * Any other decorator (a constraint, `@ValidateIf`, `@ValidateNested`) keeps class-validator in
 * the path, and the whitelist is then registered.
 */
function validatorFindsNothing(metadata: readonly ValidationMetadata[], parameters: readonly ParameterBinding[], schema: Tool.InputSchema): boolean {
  if (schema.additionalProperties !== false) return false;
  if (metadata.some((m) => m.type !== ValidationTypes.WHITELIST)) return false;
  const allowed = new Set(metadata.map((m) => m.propertyName));
  for (const binding of parameters) if (binding.kind === 'param') allowed.add(binding.property);
  return Object.keys(schema.properties ?? {}).every((key) => allowed.has(key));
}

/** What class-validator's `errors` for `instance` mean for the call. */
function judgeInput(tool: InputContract, found: readonly ValidationError[], instance: object): InputCheck {
  const errors = withoutTypeChecks(found);
  if (errors.length === 0) return { ok: true, value: instance };
  return { ok: false, message: modelMessages.invalidInput(tool.name, describeValidationErrors(errors, prepare(tool).schema)) };
}

/**
 * `@ValidateNested()`'s own complaint, that a value is neither an object nor an array: the schema
 * check already decided what JSON type each value has (a string member of `Node | string`, a
 * record it cannot walk into), so it is never the verdict. Its children, the nested instance's
 * errors, are.
 */
function withoutTypeChecks(errors: readonly ValidationError[]): ValidationError[] {
  const kept: ValidationError[] = [];
  for (const error of errors) {
    const children = withoutTypeChecks(error.children ?? []);
    const { [ValidationTypes.NESTED_VALIDATION]: _nested, ...constraints } = error.constraints ?? {};
    const hasConstraints = Object.keys(constraints).length > 0;
    if (!hasConstraints && children.length === 0) continue;
    kept.push({ ...error, constraints: hasConstraints ? constraints : undefined, children } as ValidationError);
  }
  return kept;
}
