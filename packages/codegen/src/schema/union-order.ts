import { Node, type Type, type TypeNode } from 'ts-morph';
import { aliasDeclarationOf, unwrapParentheses } from './type-nodes';

/** A member of a union with the type node it was written as, when it was written on its own. */
export interface WrittenMember {
  type: Type;
  typeNode?: TypeNode;
}

/**
 * The members of a union in the order the user wrote them. The checker orders union members by
 * internal type id, which follows whatever it happened to see first; enums and `'b' | 'a'` must
 * come out as written, so the written union (directly or through a type alias) decides.
 */
export function membersInSourceOrder(type: Type, typeNode: TypeNode | undefined): WrittenMember[] {
  const members = type.getUnionTypes();
  const written = writtenUnion(type, typeNode);
  if (!written) return members.map((member) => ({ type: member }));
  const order: WrittenMember[] = [];
  const placed = new Set<Type>();
  for (const node of written.getTypeNodes()) {
    const nodeType = node.getType();
    const parts = nodeType.isUnion() ? nodeType.getUnionTypes() : [nodeType];
    for (const part of parts) {
      const member = members.find((m) => m.compilerType === part.compilerType);
      if (!member || placed.has(member)) continue;
      placed.add(member);
      order.push(parts.length === 1 ? { type: member, typeNode: node } : { type: member });
    }
  }
  return [...order, ...members.filter((m) => !placed.has(m)).map((member) => ({ type: member }))];
}

function writtenUnion(type: Type, typeNode: TypeNode | undefined) {
  const node = unwrapParentheses(typeNode);
  if (node && Node.isUnionTypeNode(node)) return node;
  const alias = aliasDeclarationOf(node) ?? type.getAliasSymbol()?.getDeclarations().find(Node.isTypeAliasDeclaration);
  const aliased = unwrapParentheses(alias?.getTypeNode());
  return aliased && Node.isUnionTypeNode(aliased) ? aliased : undefined;
}
