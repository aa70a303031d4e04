import { ts } from 'ts-morph';
import { isArrayType, typeArguments } from './type-facts';

/** What a type declared by the platform (TypeScript's lib, `@types/node`) is, for the schema. */
export type LibraryType =
  | { kind: 'date' }
  | { kind: 'url' }
  | { kind: 'refused'; name: string; advice: string };

/** Platform types that cannot travel as JSON, with what to take instead. */
const REFUSED: Record<string, string> = {
  Promise: 'take the resolved value instead: the tool receives data, not a pending computation',
  PromiseLike: 'take the resolved value instead: the tool receives data, not a pending computation',
  Map: 'use Record<string, T> or an array of entries',
  ReadonlyMap: 'use Record<string, T> or an array of entries',
  WeakMap: 'use Record<string, T>',
  Set: 'use an array (add @uniqueItems if the values must be distinct)',
  ReadonlySet: 'use an array (add @uniqueItems if the values must be distinct)',
  WeakSet: 'use an array',
  WeakRef: 'take the value itself',
  RegExp: 'take the pattern as a string',
  Error: 'take the message as a string',
  Function: 'a tool input carries data only; take the data the function would need',
  Object: 'use object, or an interface that lists the properties',
  ArrayBuffer: 'take the bytes as a base64 string',
  SharedArrayBuffer: 'take the bytes as a base64 string',
  Buffer: 'take the bytes as a base64 string',
  Uint8Array: 'take the bytes as a base64 string, or the numbers as number[]',
};

const PLATFORM_FILE = /[\\/](typescript[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts|@types[\\/]node[\\/].*\.d\.ts)$/;

/** Lib interfaces that mean "something you can read items from": a JSON array is one. */
const ARRAY_LIKE = new Set(['ArrayLike', 'Iterable', 'ConcatArray']);

/**
 * `Date`, `URL` and the platform types that are refused. A platform type with methods is refused
 * even when it is not listed: the run time would hand the method a plain object without them.
 * Classes of other packages are left to the user (a shared DTO package is common).
 */
export function libraryType(type: ts.Type, checker: ts.TypeChecker): LibraryType | undefined {
  const symbol = type.getSymbol();
  if (!symbol || !isPlatformSymbol(symbol)) return undefined;
  const name = symbol.getName();
  if (name === 'Date') return { kind: 'date' };
  if (name === 'URL') return { kind: 'url' };
  if (REFUSED[name]) return { kind: 'refused', name, advice: REFUSED[name] };
  const qualified = checker.getFullyQualifiedName(symbol).replace(/^global\./, '');
  const methods = type.getProperties().filter(isMethod).map((p) => p.getName()).filter((n) => !n.startsWith('__@'));
  if (methods.length === 0) return undefined;
  const shown = methods.slice(0, 3).join(', ') + (methods.length > 3 ? ', …' : '');
  return {
    kind: 'refused',
    name: qualified,
    advice: `it is a platform object with methods (${shown}), which JSON cannot carry; take the data it is built from (a string, a number, an array or an object of its fields)`,
  };
}

/** Platform types whose values are pending computations: a type built on one is one. */
const PROMISES = new Set(['Promise', 'PromiseLike']);

/**
 * A type that is a refused platform type without being named as one: an intersection with one
 * (`Promise<A> & { a: string }`), an interface or class extending `Promise`/`PromiseLike`, or
 * any object with a `then` method (a thenable: `await` treats it as a promise). The checker
 * would otherwise read its data members and drop what makes it unsendable. Returns the message.
 * `text` names the type in it: asked for only then, as printing a type costs a quarter of a
 * schema's build.
 */
export function disguisedLibraryType(type: ts.Type, checker: ts.TypeChecker, text: () => string): string | undefined {
  if (type.isIntersection()) {
    for (const part of type.types) {
      const library = libraryType(part, checker);
      if (library?.kind === 'refused') return `type ${library.name} cannot be sent as JSON; ${library.advice}.`;
      const inner = disguisedLibraryType(part, checker, text);
      if (inner) return inner;
    }
    return undefined;
  }
  const promise = promiseAncestor(type, checker);
  if (promise) return `type ${text()} is a ${promise}, which cannot be sent as JSON; ${REFUSED[promise]}.`;
  const then = type.getProperty('then');
  const thenType = then && checker.getTypeOfSymbol(then);
  if (thenType && checker.getNonNullableType(thenType).getCallSignatures().length > 0) {
    return `type ${text()} has a then method, so it is a PromiseLike, which cannot be sent as JSON; ${REFUSED.PromiseLike}.`;
  }
  return undefined;
}

/** `Promise` or `PromiseLike` when a class or interface extends (or a class implements) one, at any depth. */
function promiseAncestor(type: ts.Type, checker: ts.TypeChecker, depth = 0): string | undefined {
  if (depth > 8) return undefined;
  const declared = (type as ts.TypeReference).target ?? type;
  if (!declared.isClassOrInterface()) return undefined;
  const implemented = (declared.getSymbol()?.declarations ?? []).flatMap((d) =>
    ts.isClassDeclaration(d) ? (d.heritageClauses ?? []).filter((h) => h.token === ts.SyntaxKind.ImplementsKeyword).flatMap((h) => h.types.map((t) => checker.getTypeAtLocation(t))) : [],
  );
  for (const base of [...(declared.getBaseTypes() ?? []), ...implemented]) {
    const symbol = base.getSymbol();
    if (symbol && PROMISES.has(symbol.getName()) && isPlatformSymbol(symbol)) return symbol.getName();
    const deeper = promiseAncestor(base, checker, depth + 1);
    if (deeper) return deeper;
  }
  return undefined;
}

/** The item type of anything array-like that is not `T[]` itself, and the members an array cannot carry. */
export function arrayLikeElement(type: ts.Type, checker: ts.TypeChecker): { element: ts.Type; extraMembers: string[] } | undefined {
  const symbol = type.getSymbol();
  if (symbol && ARRAY_LIKE.has(symbol.getName()) && isPlatformSymbol(symbol)) {
    const element = typeArguments(type, checker)[0] ?? type.aliasTypeArguments?.[0];
    return element ? { element, extraMembers: [] } : undefined;
  }
  if (!extendsArray(type, checker)) return undefined;
  const element = type.getNumberIndexType();
  if (!element) return undefined;
  const extraMembers = type
    .getProperties()
    .filter((p) => !p.getName().startsWith('__@') && (p.declarations ?? []).some((d) => !d.getSourceFile().isDeclarationFile))
    .map((p) => p.getName());
  return { element, extraMembers };
}

/** `interface Tags extends Array<Tag>`, `class List<T> extends ReadonlyArray<T>`, at any depth. */
function extendsArray(type: ts.Type, checker: ts.TypeChecker, depth = 0): boolean {
  if (depth > 0 && isArrayType(type, checker)) return true;
  if (depth > 8) return false;
  const declared = (type as ts.TypeReference).target ?? type;
  if (!declared.isClassOrInterface()) return false;
  return (declared.getBaseTypes() ?? []).some((base) => extendsArray(base, checker, depth + 1));
}

function isMethod(property: ts.Symbol): boolean {
  return (property.declarations ?? []).some((d) => ts.isMethodSignature(d) || ts.isMethodDeclaration(d));
}

/**
 * Declared by TypeScript's `lib` files or by `@types/node` (also when the user's code augments
 * it, as date libraries do with `Date`), not a package's class that reuses a name.
 */
function isPlatformSymbol(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => PLATFORM_FILE.test(d.getSourceFile().fileName));
}
