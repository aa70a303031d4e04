import { ts } from 'ts-morph';

// What a compiler type is, read as ts-morph's `Type` reads it (same flags and the same symbol
// names), without wrapping every type and symbol the schema walk meets.

/** Whether the type has every bit of `flag`, as ts-morph's tests read one flag; for a group (`StringLike`), test `type.flags & group`. */
export function hasFlag(type: ts.Type, flag: ts.TypeFlags): boolean {
  return (type.flags & flag) === flag;
}

/** `T[]` or `readonly T[]` (ts-morph's `isArray`: the lib's `Array` or `ReadonlyArray` with one argument). */
export function isArrayType(type: ts.Type, checker: ts.TypeChecker): boolean {
  const name = type.getSymbol()?.getName();
  return (name === 'Array' || name === 'ReadonlyArray') && typeArguments(type, checker).length === 1;
}

export function arrayElementType(type: ts.Type, checker: ts.TypeChecker): ts.Type | undefined {
  return isArrayType(type, checker) ? typeArguments(type, checker)[0] : undefined;
}

export function isTupleType(type: ts.Type): boolean {
  const target = (type as ts.TypeReference).target;
  return target !== undefined && hasFlag(target, ts.TypeFlags.Object) && (target.objectFlags & ts.ObjectFlags.Tuple) !== 0;
}

export function typeArguments(type: ts.Type, checker: ts.TypeChecker): readonly ts.Type[] {
  return checker.getTypeArguments(type as ts.TypeReference);
}

/** `true`/`false` as types: the literal types the checker makes `boolean` of. */
export function isBooleanLiteral(type: ts.Type): boolean {
  return hasFlag(type, ts.TypeFlags.BooleanLiteral);
}

/** A string, number or bigint literal type, or `true`/`false`. */
export function isLiteralType(type: ts.Type): boolean {
  return type.isLiteral() || isBooleanLiteral(type);
}

export function isEnumLiteral(type: ts.Type): boolean {
  return hasFlag(type, ts.TypeFlags.EnumLiteral) && !type.isUnion();
}

export function isObjectLike(type: ts.Type): boolean {
  return hasFlag(type, ts.TypeFlags.Object) || type.isIntersection();
}

/** The flags ts-morph's `Type.getText()` writes a type with by default (it adds `InTypeAlias` only inside a type alias declaration, which no site here is). */
export const DEFAULT_TYPE_TEXT = ts.TypeFormatFlags.UseTypeOfFunction | ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseFullyQualifiedType | ts.TypeFormatFlags.WriteTypeArgumentsOfSignature;
