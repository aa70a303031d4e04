import { ts } from 'ts-morph';

// Reading the written type next to the checked one: the checker forgets that `Slug` was written
// (a `string` alias has no alias symbol), and the tags and order the user wrote live on the nodes.

export function unwrapParentheses(node: ts.TypeNode | undefined): ts.TypeNode | undefined {
  let current = node;
  while (current && ts.isParenthesizedTypeNode(current)) current = current.type;
  return current;
}

/** The `type X = ...` a written `X` (or `X<A>`) refers to, through imports. */
export function aliasDeclarationOf(node: ts.TypeNode | undefined, checker: ts.TypeChecker): ts.TypeAliasDeclaration | undefined {
  const reference = unwrapParentheses(node);
  if (!reference || !ts.isTypeReferenceNode(reference)) return undefined;
  let symbol = checker.getSymbolAtLocation(reference.typeName);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol?.declarations?.find(ts.isTypeAliasDeclaration);
}

/** The element node of `T[]`, `readonly T[]`, `Array<T>` and `ReadonlyArray<T>`. */
export function arrayElementNode(node: ts.TypeNode | undefined): ts.TypeNode | undefined {
  let current = unwrapParentheses(node);
  if (current && ts.isTypeOperatorNode(current)) current = unwrapParentheses(current.type);
  if (current && ts.isArrayTypeNode(current)) return current.elementType;
  if (current && ts.isTypeReferenceNode(current) && /^(Readonly)?Array$/.test(current.typeName.getText())) return current.typeArguments?.[0];
  return undefined;
}

/** The element nodes of a written tuple `[A, B?]`, `readonly [a: A]`; `[]` when it is not one. */
export function tupleElementNodes(node: ts.TypeNode | undefined): Array<ts.TypeNode | undefined> {
  let current = unwrapParentheses(node);
  if (current && ts.isTypeOperatorNode(current)) current = unwrapParentheses(current.type);
  if (!current || !ts.isTupleTypeNode(current)) return [];
  return current.elements.map((element) => {
    const inner = ts.isNamedTupleMember(element) ? element.type : element;
    return ts.isOptionalTypeNode(inner) ? inner.type : inner;
  });
}
