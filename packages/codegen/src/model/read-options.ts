import { ts, type Decorator } from 'ts-morph';
import type { Diagnostics } from '../lint/diagnostic';
import { decoratorCall } from '../scan/decorator-origin';
import { evaluateLiteral, type LiteralValue } from '../scan/literal-value';

/**
 * The object literal passed to a decorator (`@Tool({...})`, `@Param({...})`), read key by key so
 * that a computed option the codegen does not need (a `guard` function) does not hide the rest.
 * Read on the compiler's nodes: every tool has options, and wrapping them cost more than reading.
 */
export function readDecoratorOptions(
  decorator: Decorator,
  literalKeys: readonly string[],
  diagnostics: Diagnostics,
  path: readonly string[],
): Record<string, LiteralValue> {
  const argument = decoratorCall(decorator.compilerNode)?.arguments[0];
  if (!argument) return {};
  // Named only in a message: most options are fine.
  const source = () => `@${decorator.getName()}()`;
  if (!ts.isObjectLiteralExpression(argument)) {
    diagnostics.error(argument, path, `${source()} options must be written as an object literal so tools-codegen can read them.`);
    return {};
  }
  const checker = decorator.getProject().getTypeChecker().compilerObject;
  const options: Record<string, LiteralValue> = {};
  for (const property of argument.properties) {
    // A method (`guard(ctx, input) {...}`) is fine as long as it is not an option the codegen reads.
    if (ts.isMethodDeclaration(property) && !literalKeys.includes(property.name.getText())) continue;
    if (!ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property)) {
      diagnostics.error(property, path, `${source()} options: write each option as "key: value"; spreads cannot be read at build time.`);
      continue;
    }
    const name = property.name.getText();
    if (!literalKeys.includes(name)) continue;
    const value = ts.isPropertyAssignment(property) ? property.initializer : property.name;
    const evaluated = evaluateLiteral(value, checker);
    if (!evaluated.ok) {
      diagnostics.error(property, path, `${source()} option "${name}" must be a literal or a const so tools-codegen can read it; got ${value.getText()}.`);
      continue;
    }
    options[name] = evaluated.value;
  }
  return options;
}
