import { Node, ts, type Decorator } from 'ts-morph';
import type { Diagnostics } from '../lint/diagnostic';
import { evaluateLiteral, type LiteralValue } from '../scan/literal-value';

/**
 * The object literal passed to a decorator (`@Tool({...})`, `@Param({...})`), read key by key so
 * that a computed option the codegen does not need (a `guard` function) does not hide the rest.
 */
export function readDecoratorOptions(
  decorator: Decorator,
  literalKeys: readonly string[],
  diagnostics: Diagnostics,
  path: readonly string[],
): Record<string, LiteralValue> {
  if (!hasArguments(decorator)) return {};
  const argument = decorator.getArguments()[0];
  // Named only in a message: most options are fine, and asking ts-morph for the name wraps nodes.
  const source = () => `@${decorator.getName()}()`;
  if (!Node.isObjectLiteralExpression(argument)) {
    diagnostics.error(argument, path, `${source()} options must be written as an object literal so tools-codegen can read them.`);
    return {};
  }
  const options: Record<string, LiteralValue> = {};
  for (const property of argument.getProperties()) {
    // A method (`guard(ctx, input) {...}`) is fine as long as it is not an option the codegen reads.
    if (Node.isMethodDeclaration(property) && !literalKeys.includes(property.getName())) continue;
    if (!Node.isPropertyAssignment(property) && !Node.isShorthandPropertyAssignment(property)) {
      diagnostics.error(property, path, `${source()} options: write each option as "key: value"; spreads cannot be read at build time.`);
      continue;
    }
    const name = property.getName();
    if (!literalKeys.includes(name)) continue;
    const value = Node.isPropertyAssignment(property) ? property.getInitializer() : property.getNameNode();
    const evaluated = value ? evaluateLiteral(value) : { ok: false as const };
    if (!evaluated.ok) {
      diagnostics.error(property, path, `${source()} option "${name}" must be a literal or a const so tools-codegen can read it; got ${value?.getText() ?? 'nothing'}.`);
      continue;
    }
    options[name] = evaluated.value;
  }
  return options;
}

/** `decorator.getArguments().length > 0`, read from the compiler's node: most decorators (`@Param()`) have none, and wrapping costs more. */
function hasArguments(decorator: Decorator): boolean {
  let expression: ts.Expression = decorator.compilerNode.expression;
  while (ts.isParenthesizedExpression(expression)) expression = expression.expression;
  return ts.isCallExpression(expression) && expression.arguments.length > 0;
}
