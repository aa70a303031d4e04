import { Node, type Decorator, type ts } from 'ts-morph';
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
  const callee = decorator.getCallExpression()?.getExpression() ?? decorator.getExpression();
  const symbol = callee.getSymbol();
  if (!symbol) return fromImportSpecifier(callee);
  // A file's `Tool` import is one symbol for all its decorators, so it is resolved once. The
  // answers are kept per type checker: an unchanged file keeps its symbols when watch mode
  // rebuilds the program, but what its imports resolve to may have changed.
  const checker = decorator.getProject().getTypeChecker().compilerObject;
  let origins = originsByChecker.get(checker);
  if (!origins) originsByChecker.set(checker, (origins = new WeakMap()));
  const key = symbol.compilerSymbol;
  let origin = origins.get(key);
  if (origin === undefined && !origins.has(key)) {
    const target = symbol.isAlias() ? symbol.getAliasedSymbol() ?? symbol : symbol;
    const declaration = target.getDeclarations()[0];
    origin = declaration ? originOf(target.getName(), declaration) : null;
    origins.set(key, origin);
  }
  return origin === null ? fromImportSpecifier(callee) : origin;
}

/** `null`: the symbol has no declaration, so the import statement has to tell. */
const originsByChecker = new WeakMap<ts.TypeChecker, WeakMap<ts.Symbol, DecoratorOrigin | undefined | null>>();

function originOf(name: string, declaration: Node): DecoratorOrigin | undefined {
  const packageName = packageNameOf(declaration.getSourceFile().getFilePath());
  return packageName ? { name, packageName } : undefined;
}

export function isDecoratorFrom(decorator: Decorator, packageName: string, name: string): boolean {
  const origin = decoratorOrigin(decorator);
  return origin !== undefined && origin.packageName === packageName && origin.name === name;
}

/** When the module does not resolve (no node_modules yet), trust the import statement itself. */
function fromImportSpecifier(callee: Node): DecoratorOrigin | undefined {
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
