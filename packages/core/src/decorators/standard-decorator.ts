import { ToolDefinitionError } from './definition-error';

/**
 * The second argument a standard (TC39) decorator receives: `{ kind: 'method', name, static, ... }`.
 * TypeScript calls decorators that way when `experimentalDecorators` is off, and toolwright's
 * decorators are experimental ones (parameters cannot be decorated in the standard form).
 */
interface StandardDecoratorContext {
  kind: string;
  name?: string | symbol;
}

export function isStandardDecoratorContext(value: unknown): value is StandardDecoratorContext {
  return typeof value === 'object' && value !== null && typeof (value as StandardDecoratorContext).kind === 'string';
}

/** What to do when a decorator is called in the standard form: the flag, where it goes, rebuild. */
export function standardDecoratorError(decorator: string, context: StandardDecoratorContext): ToolDefinitionError {
  const on = context.name === undefined ? '' : ` on ${String(context.name)}`;
  return new ToolDefinitionError(
    `@${decorator}${on} was called as a standard (TC39) decorator, but toolwright's decorators are TypeScript's ` +
      'experimental decorators: set "experimentalDecorators": true in the compilerOptions of the tsconfig that compiles ' +
      'this file (vitest, esbuild and swc read it from the tsconfig too), then rebuild.',
  );
}
