import { Node, type Type, type TypeNode } from 'ts-morph';

/**
 * The members of a union in the order the user wrote them. The checker orders union members by
 * internal type id, which follows whatever it happened to see first; enums and `'b' | 'a'` must
 * come out as written, so the written union (directly or through a type alias) decides.
 */
export function membersInSourceOrder(type: Type, typeNode: TypeNode | undefined): Type[] {
  const members = type.getUnionTypes();
  const written = writtenUnion(type, typeNode);
  if (!written) return members;
  const order: Type[] = [];
  for (const node of written.getTypeNodes()) {
    const nodeType = node.getType();
    const parts = nodeType.isUnion() ? nodeType.getUnionTypes() : [nodeType];
    for (const part of parts) {
      const member = members.find((m) => m.compilerType === part.compilerType);
      if (member && !order.includes(member)) order.push(member);
    }
  }
  return [...order, ...members.filter((m) => !order.includes(m))];
}

function writtenUnion(type: Type, typeNode: TypeNode | undefined) {
  let node: Node | undefined = typeNode;
  while (node && Node.isParenthesizedTypeNode(node)) node = node.getTypeNode();
  if (node && Node.isUnionTypeNode(node)) return node;
  const alias = type.getAliasSymbol()?.getDeclarations()[0];
  if (alias && Node.isTypeAliasDeclaration(alias)) {
    const aliased = alias.getTypeNode();
    if (aliased && Node.isUnionTypeNode(aliased)) return aliased;
  }
  return undefined;
}
