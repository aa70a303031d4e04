import { Node, ts, type ParameterDeclaration, type PropertyDeclaration, type PropertySignature, type TypeAliasDeclaration, type TypeNode } from 'ts-morph';

// Reading the written type next to the checked one: the checker forgets that `Slug` was written
// (a `string` alias has no alias symbol), and the tags and order the user wrote live on the nodes.

/** The kinds of written type the readers here look into; any other says nothing they use. */
const READ_KINDS = new Set([
  ts.SyntaxKind.ParenthesizedType, ts.SyntaxKind.TypeReference, ts.SyntaxKind.TypeOperator, ts.SyntaxKind.ArrayType, ts.SyntaxKind.TupleType, ts.SyntaxKind.UnionType,
]);

/**
 * A declaration's written type, when it is of a kind the readers here use. Most properties are
 * written as a keyword (`string`), and wrapping each one's type node cost more than the reading.
 */
export function writtenTypeNode(declaration: PropertyDeclaration | PropertySignature | ParameterDeclaration): TypeNode | undefined {
  const kind = declaration.compilerNode.type?.kind;
  return kind !== undefined && READ_KINDS.has(kind) ? declaration.getTypeNode() : undefined;
}

export function unwrapParentheses(node: TypeNode | undefined): TypeNode | undefined {
  let current = node;
  while (current && Node.isParenthesizedTypeNode(current)) current = current.getTypeNode();
  return current;
}

/** The `type X = ...` a written `X` (or `X<A>`) refers to, through imports. */
export function aliasDeclarationOf(node: TypeNode | undefined): TypeAliasDeclaration | undefined {
  const reference = unwrapParentheses(node);
  if (!reference || !Node.isTypeReference(reference)) return undefined;
  let symbol = reference.getTypeName().getSymbol();
  if (symbol?.isAlias()) symbol = symbol.getAliasedSymbol();
  return symbol?.getDeclarations().find(Node.isTypeAliasDeclaration);
}

/** The element node of `T[]`, `readonly T[]`, `Array<T>` and `ReadonlyArray<T>`. */
export function arrayElementNode(node: TypeNode | undefined): TypeNode | undefined {
  let current = unwrapParentheses(node);
  if (current && Node.isTypeOperatorTypeNode(current)) current = unwrapParentheses(current.getTypeNode());
  if (current && Node.isArrayTypeNode(current)) return current.getElementTypeNode();
  if (current && Node.isTypeReference(current) && /^(Readonly)?Array$/.test(current.getTypeName().getText())) return current.getTypeArguments()[0];
  return undefined;
}

/** The element nodes of a written tuple `[A, B?]`, `readonly [a: A]`; `[]` when it is not one. */
export function tupleElementNodes(node: TypeNode | undefined): Array<TypeNode | undefined> {
  let current = unwrapParentheses(node);
  if (current && Node.isTypeOperatorTypeNode(current)) current = unwrapParentheses(current.getTypeNode());
  if (!current || !Node.isTupleTypeNode(current)) return [];
  return current.getElements().map((element) => {
    const inner = Node.isNamedTupleMember(element) ? element.getTypeNode() : element;
    return Node.isOptionalTypeNode(inner) ? inner.getTypeNode() : inner;
  });
}
