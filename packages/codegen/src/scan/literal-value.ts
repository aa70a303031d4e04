import { Node, SyntaxKind, type Expression } from 'ts-morph';

/** A regular expression literal, kept as source and flags so it can be written back out. */
export interface RegexValue {
  regex: string;
  flags: string;
}

export type LiteralValue =
  | string
  | number
  | boolean
  | null
  | RegexValue
  | LiteralValue[]
  | { [key: string]: LiteralValue };

export type Evaluated = { ok: true; value: LiteralValue } | { ok: false };

const NOT_LITERAL: Evaluated = { ok: false };

export function isRegexValue(value: unknown): value is RegexValue {
  return typeof value === 'object' && value !== null && 'regex' in value && 'flags' in value;
}

/**
 * The value of a decorator argument, known at build time: literals, arrays and object literals of
 * them, regex literals, `const` identifiers and enum members. Anything computed is refused, so
 * the schema never guesses at what the code does at run time.
 */
export function evaluateLiteral(expression: Node, seen: Set<Node> = new Set()): Evaluated {
  if (seen.has(expression)) return NOT_LITERAL;
  seen.add(expression);
  const ok = (value: LiteralValue): Evaluated => ({ ok: true, value });
  if (Node.isStringLiteral(expression) || Node.isNoSubstitutionTemplateLiteral(expression)) return ok(expression.getLiteralValue());
  if (Node.isNumericLiteral(expression)) return ok(expression.getLiteralValue());
  if (Node.isTrueLiteral(expression)) return ok(true);
  if (Node.isFalseLiteral(expression)) return ok(false);
  if (Node.isNullLiteral(expression)) return ok(null);
  if (Node.isRegularExpressionLiteral(expression)) {
    const text = expression.getText();
    const end = text.lastIndexOf('/');
    return ok({ regex: text.slice(1, end), flags: text.slice(end + 1) });
  }
  if (Node.isPrefixUnaryExpression(expression) && expression.getOperatorToken() === SyntaxKind.MinusToken) {
    const operand = evaluateLiteral(expression.getOperand(), seen);
    return operand.ok && typeof operand.value === 'number' ? ok(-operand.value) : NOT_LITERAL;
  }
  if (Node.isParenthesizedExpression(expression) || Node.isAsExpression(expression) || Node.isSatisfiesExpression(expression)) {
    return evaluateLiteral(expression.getExpression(), seen);
  }
  if (Node.isArrayLiteralExpression(expression)) return evaluateAll(expression.getElements(), seen);
  if (Node.isObjectLiteralExpression(expression)) return evaluateObject(expression, seen);
  if (Node.isIdentifier(expression) || Node.isPropertyAccessExpression(expression)) return evaluateReference(expression, seen);
  return NOT_LITERAL;
}

function evaluateAll(elements: readonly Expression[], seen: Set<Node>): Evaluated {
  const values: LiteralValue[] = [];
  for (const element of elements) {
    const evaluated = evaluateLiteral(element, seen);
    if (!evaluated.ok) return NOT_LITERAL;
    values.push(evaluated.value);
  }
  return { ok: true, value: values };
}

function evaluateObject(expression: Node, seen: Set<Node>): Evaluated {
  if (!Node.isObjectLiteralExpression(expression)) return NOT_LITERAL;
  const value: { [key: string]: LiteralValue } = {};
  for (const property of expression.getProperties()) {
    if (!Node.isPropertyAssignment(property)) return NOT_LITERAL;
    const nameNode = property.getNameNode();
    const key = Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : nameNode.getText();
    const initializer = property.getInitializer();
    const evaluated = initializer ? evaluateLiteral(initializer, seen) : NOT_LITERAL;
    if (!evaluated.ok) return NOT_LITERAL;
    value[key] = evaluated.value;
  }
  return { ok: true, value };
}

/** `const MAX = 5` and `Status.Open` are as good as literals; `let` and parameters are not. */
function evaluateReference(expression: Node, seen: Set<Node>): Evaluated {
  if (Node.isIdentifier(expression) && expression.getText() === 'undefined') return NOT_LITERAL;
  const symbol = expression.getSymbol();
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  const declaration = target?.getDeclarations()[0];
  if (Node.isEnumMember(declaration)) {
    const value = declaration.getValue();
    return value === undefined ? NOT_LITERAL : { ok: true, value };
  }
  if (Node.isVariableDeclaration(declaration) && declaration.getVariableStatement()?.getDeclarationKind() === 'const') {
    const initializer = declaration.getInitializer();
    return initializer ? evaluateLiteral(initializer, seen) : NOT_LITERAL;
  }
  return NOT_LITERAL;
}
