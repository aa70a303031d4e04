import { Node, ts } from 'ts-morph';

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
 * the schema never guesses at what the code does at run time. Read on the compiler's nodes (every
 * tool's options are read); a ts-morph node brings its project's checker.
 */
export function evaluateLiteral(expression: Node): Evaluated;
export function evaluateLiteral(expression: ts.Node, checker: ts.TypeChecker): Evaluated;
export function evaluateLiteral(expression: Node | ts.Node, checker?: ts.TypeChecker): Evaluated {
  if (Node.isNode(expression)) return evaluate(expression.compilerNode, expression.getProject().getTypeChecker().compilerObject, new Set());
  return evaluate(expression, checker!, new Set());
}

function evaluate(expression: ts.Node, checker: ts.TypeChecker, seen: Set<ts.Node>): Evaluated {
  if (seen.has(expression)) return NOT_LITERAL;
  seen.add(expression);
  const ok = (value: LiteralValue): Evaluated => ({ ok: true, value });
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return ok(expression.text);
  if (ts.isNumericLiteral(expression)) return ok(expression.text.includes('.') ? parseFloat(expression.text) : parseInt(expression.text, 10));
  if (expression.kind === ts.SyntaxKind.TrueKeyword) return ok(true);
  if (expression.kind === ts.SyntaxKind.FalseKeyword) return ok(false);
  if (expression.kind === ts.SyntaxKind.NullKeyword) return ok(null);
  if (ts.isRegularExpressionLiteral(expression)) {
    const text = expression.getText();
    const end = text.lastIndexOf('/');
    return ok({ regex: text.slice(1, end), flags: text.slice(end + 1) });
  }
  if (ts.isPrefixUnaryExpression(expression) && expression.operator === ts.SyntaxKind.MinusToken) {
    const operand = evaluate(expression.operand, checker, seen);
    return operand.ok && typeof operand.value === 'number' ? ok(-operand.value) : NOT_LITERAL;
  }
  if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)) {
    return evaluate(expression.expression, checker, seen);
  }
  if (ts.isArrayLiteralExpression(expression)) return evaluateAll(expression.elements, checker, seen);
  if (ts.isObjectLiteralExpression(expression)) return evaluateObject(expression, checker, seen);
  if (ts.isIdentifier(expression) || ts.isPropertyAccessExpression(expression)) return evaluateReference(expression, checker, seen);
  return NOT_LITERAL;
}

function evaluateAll(elements: readonly ts.Expression[], checker: ts.TypeChecker, seen: Set<ts.Node>): Evaluated {
  const values: LiteralValue[] = [];
  for (const element of elements) {
    const evaluated = evaluate(element, checker, seen);
    if (!evaluated.ok) return NOT_LITERAL;
    values.push(evaluated.value);
  }
  return { ok: true, value: values };
}

function evaluateObject(expression: ts.ObjectLiteralExpression, checker: ts.TypeChecker, seen: Set<ts.Node>): Evaluated {
  const value: { [key: string]: LiteralValue } = {};
  for (const property of expression.properties) {
    if (!ts.isPropertyAssignment(property)) return NOT_LITERAL;
    const key = ts.isStringLiteral(property.name) ? property.name.text : property.name.getText();
    const evaluated = evaluate(property.initializer, checker, seen);
    if (!evaluated.ok) return NOT_LITERAL;
    value[key] = evaluated.value;
  }
  return { ok: true, value };
}

/** `const MAX = 5` and `Status.Open` are as good as literals; `let` and parameters are not. */
function evaluateReference(expression: ts.Identifier | ts.PropertyAccessExpression, checker: ts.TypeChecker, seen: Set<ts.Node>): Evaluated {
  if (ts.isIdentifier(expression) && expression.text === 'undefined') return NOT_LITERAL;
  const symbol = checker.getSymbolAtLocation(expression);
  const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = target?.declarations?.[0];
  if (declaration && ts.isEnumMember(declaration)) {
    const value = checker.getConstantValue(declaration);
    return value === undefined ? NOT_LITERAL : { ok: true, value };
  }
  if (declaration && ts.isVariableDeclaration(declaration) && isConstStatement(declaration)) {
    return declaration.initializer ? evaluate(declaration.initializer, checker, seen) : NOT_LITERAL;
  }
  return NOT_LITERAL;
}

/** `const x = ...` as a statement (not `let`, `var`, `using`, nor a `for (const ...)` head). */
function isConstStatement(declaration: ts.VariableDeclaration): boolean {
  const list = declaration.parent;
  if (!ts.isVariableDeclarationList(list) || !ts.isVariableStatement(list.parent)) return false;
  return (list.flags & ts.NodeFlags.Let) === 0 && (list.flags & ts.NodeFlags.Using) === 0 && (list.flags & ts.NodeFlags.Const) !== 0;
}
