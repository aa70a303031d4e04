import { ts } from 'ts-morph';
import { aliasDeclarationOf, unwrapParentheses } from './type-nodes';

/** A member of a union with the type node it was written as, when it was written on its own. */
export interface WrittenMember {
  type: ts.Type;
  typeNode?: ts.TypeNode;
}

/**
 * The members of a union in the order the user wrote them. The checker orders union members by
 * internal type id, which follows whatever it happened to see first; enums and `'b' | 'a'` must
 * come out as written, so the written union (directly or through a type alias) decides.
 */
export function membersInSourceOrder(type: ts.UnionType, typeNode: ts.TypeNode | undefined, checker: ts.TypeChecker): WrittenMember[] {
  const members = type.types;
  const written = writtenUnion(type, typeNode, checker);
  if (!written) return members.map((member) => ({ type: member }));
  const order: WrittenMember[] = [];
  const placed = new Set<ts.Type>();
  for (const node of written.types) {
    const nodeType = checker.getTypeAtLocation(node);
    const parts = nodeType.isUnion() ? nodeType.types : [nodeType];
    for (const part of parts) {
      if (!members.includes(part) || placed.has(part)) continue;
      placed.add(part);
      order.push(parts.length === 1 ? { type: part, typeNode: node } : { type: part });
    }
  }
  return [...order, ...members.filter((m) => !placed.has(m)).map((member) => ({ type: member }))];
}

function writtenUnion(type: ts.Type, typeNode: ts.TypeNode | undefined, checker: ts.TypeChecker): ts.UnionTypeNode | undefined {
  const node = unwrapParentheses(typeNode);
  if (node && ts.isUnionTypeNode(node)) return node;
  const alias = aliasDeclarationOf(node, checker) ?? type.aliasSymbol?.declarations?.find(ts.isTypeAliasDeclaration);
  const aliased = unwrapParentheses(alias?.type);
  return aliased && ts.isUnionTypeNode(aliased) ? aliased : undefined;
}
