import { plainToInstance } from 'class-transformer';
import { validate, type ValidatorOptions } from 'class-validator';
import { checkPlainInput, type InputLimits } from './plain-input';
import { describeValidationErrors } from './describe-errors';
import { modelMessages } from '../execution/messages';

const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  // A tool without parameters has an input class without metadata; it must still accept `{}`.
  forbidUnknownValues: false,
  validationError: { target: false },
};

export type InputCheck = { ok: true; value: object } | { ok: false; message: string };

/**
 * The boundary: the model's `input` becomes an instance of the tool's input class, or a message
 * that tells the model which fields to fix. Nothing of the input reaches the tool unchecked.
 */
export async function validateInput(
  input: unknown,
  inputClass: new () => object,
  toolName: string,
  schema: unknown,
  limits: InputLimits,
): Promise<InputCheck> {
  const refused = checkPlainInput(input, limits);
  if (refused) return { ok: false, message: refused };
  const instance = plainToInstance(inputClass, input as object);
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  if (errors.length === 0) return { ok: true, value: instance };
  return { ok: false, message: modelMessages.invalidInput(toolName, describeValidationErrors(errors, schema)) };
}
