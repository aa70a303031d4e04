import { Node, ts, type Decorator } from 'ts-morph';
import { packageNameOf } from './package-name';

export const TOOLWRIGHT_CORE = '@toolwright/core';
export const CLASS_VALIDATOR = 'class-validator';
export const CLASS_TRANSFORMER = 'class-transformer';

/** Where a decorator comes from: the exported name it has in its package and that package. */
export interface DecoratorOrigin {
  name: string;
  packageName: string;
}

/**
 * Resolves `@X(...)` to the declaration `X` stands for, following import aliases
 * (`import { Tool as T }`), namespace imports (`@tw.Tool()`) and re-exports. The package is the
 * declaration's own package, so a local function that happens to be called `Tool` is not a tool.
 */
export function decoratorOrigin(decorator: Decorator): DecoratorOrigin | undefined {
  const callee = decoratorCall(decorator.compilerNode)?.expression ?? decorator.compilerNode.expression;
  // The answers are kept per type checker: an unchanged file keeps its nodes and symbols when
  // watch mode rebuilds the program, but what its imports resolve to may have changed.
  const checker = decorator.getProject().getTypeChecker().compilerObject;
  let cache = cachesByChecker.get(checker);
  if (!cache) cachesByChecker.set(checker, (cache = { bySymbol: new WeakMap(), byFile: new WeakMap() }));
  // For a class that is one of its file's statements, a decorator's names are looked up in the
  // file's own scope, so `@Tool` means the same thing on every method and parameter of the
  // file's classes, and the checker is asked once per file.
  if (!ts.isIdentifier(callee) || !resolvedInFileScope(decorator.compilerNode)) return resolve(decorator, callee, checker, cache.bySymbol);
  const file = decorator.compilerNode.getSourceFile();
  let names = cache.byFile.get(file);
  if (!names) cache.byFile.set(file, (names = new Map()));
  if (names.has(callee.text)) return names.get(callee.text);
  const origin = resolve(decorator, callee, checker, cache.bySymbol);
  names.set(callee.text, origin);
  return origin;
}

/** The call of a decorator factory (`@Tool({...})`, also written `@(Tool({...}))`), as ts-morph's `getCallExpression` finds it. */
export function decoratorCall(decorator: ts.Decorator): ts.CallExpression | undefined {
  let expression: ts.Expression = decorator.expression;
  while (ts.isParenthesizedExpression(expression)) expression = expression.expression;
  return ts.isCallExpression(expression) ? expression : undefined;
}

interface OriginCache {
  /** `null`: the symbol has no declaration, so the import statement has to tell. */
  bySymbol: WeakMap<ts.Symbol, DecoratorOrigin | undefined | null>;
  /** Per file, by the decorator's name, for the classes that are the file's statements. */
  byFile: WeakMap<ts.SourceFile, Map<string, DecoratorOrigin | undefined>>;
}

const cachesByChecker = new WeakMap<ts.TypeChecker, OriginCache>();

function resolve(decorator: Decorator, callee: ts.Expression, checker: ts.TypeChecker, bySymbol: OriginCache['bySymbol']): DecoratorOrigin | undefined {
  const symbol = checker.getSymbolAtLocation(callee);
  if (!symbol) return fromImportSpecifier(decorator);
  // A file's `Tool` import is one symbol for all its decorators, so it is resolved once.
  let origin = bySymbol.get(symbol);
  if (origin === undefined && !bySymbol.has(symbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target.declarations?.[0];
    origin = declaration ? originOf(target.name, declaration) : null;
    bySymbol.set(symbol, origin);
  }
  return origin === null ? fromImportSpecifier(decorator) : origin;
}

/**
 * Whether the checker looks the decorator's names up in its file's scope: TypeScript's rule
 * (`resolveNameHelper`) moves a decorator of a class, of a class member or of a member's
 * parameter to the class itself, and from a class that is a statement of its file the next
 * scope holding values is the file.
 */
function resolvedInFileScope(decorator: ts.Decorator): boolean {
  let owner: ts.Node = decorator.parent;
  if (ts.isParameter(owner)) owner = owner.parent;
  if (ts.isClassElement(owner)) owner = owner.parent;
  return ts.isClassDeclaration(owner) && ts.isSourceFile(owner.parent);
}

function originOf(name: string, declaration: ts.Declaration): DecoratorOrigin | undefined {
  const packageName = packageNameOf(declaration.getSourceFile().fileName);
  return packageName ? { name, packageName } : undefined;
}

export function isDecoratorFrom(decorator: Decorator, packageName: string, name: string): boolean {
  const origin = decoratorOrigin(decorator);
  return origin !== undefined && origin.packageName === packageName && origin.name === name;
}

/** When the module does not resolve (no node_modules yet), trust the import statement itself. */
function fromImportSpecifier(decorator: Decorator): DecoratorOrigin | undefined {
  const callee = decorator.getCallExpression()?.getExpression() ?? decorator.getExpression();
  const root = Node.isPropertyAccessExpression(callee) ? callee.getExpression() : callee;
  if (!Node.isIdentifier(root)) return undefined;
  const local = root.getText();
  for (const imported of root.getSourceFile().getImportDeclarations()) {
    const packageName = imported.getModuleSpecifierValue();
    if (Node.isPropertyAccessExpression(callee) && imported.getNamespaceImport()?.getText() === local) {
      return { name: callee.getName(), packageName };
    }
    const specifier = imported.getNamedImports().find((s) => (s.getAliasNode()?.getText() ?? s.getName()) === local);
    if (specifier) return { name: specifier.getName(), packageName };
  }
  return undefined;
}
