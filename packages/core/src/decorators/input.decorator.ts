import { registerParam } from './param-registry';

/** This parameter is the whole input object: a DTO class described by class-validator and JSDoc. */
export function Input(): ParameterDecorator {
  return registerParam('input');
}
