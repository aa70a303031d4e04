import { Node, type ClassDeclaration } from 'ts-morph';

/**
 * Why the generated module cannot `import { Name }` a class from its file, or `undefined` when
 * it can. It imports each provider, `@Input` DTO and nested DTO class by name, so the class must
 * be a named export of its file (so it has a name); `unexported` is the message for a class that
 * is not exported at all, which says what the caller needs it for.
 */
export function classImportProblem(declaration: ClassDeclaration, unexported: string): string | undefined {
  const className = declaration.getName() ?? '(anonymous)';
  const topLevel = Node.isSourceFile(declaration.getParent());
  // `export class Name` at the top level, nearly every class: told without looking up symbols.
  if (topLevel && declaration.hasExportKeyword() && !declaration.hasDefaultKeyword()) return undefined;
  if (!topLevel) {
    return `class ${className} is declared inside a function or namespace, where the generated module cannot import it; declare it at the top level of its file and export it.`;
  }
  // An anonymous class declaration can only be a default export.
  if (declaration.isDefaultExport() || !declaration.getName()) {
    return `class ${className} is its file's default export, and the generated module imports classes by name; export it by name (export class ${declaration.getName() ?? 'Name'}).`;
  }
  if (!declaration.isNamedExport()) return unexported;
  // `export { Name as Other }` only: the file has no export the generated `import { Name }` can find.
  const own = declaration.getSourceFile().getSymbol()?.getExport(className);
  const symbol = declaration.getSymbol();
  if (own && (own === symbol || (own.isAlias() && own.getAliasedSymbol() === symbol))) return undefined;
  return `class ${className} is exported only under another name, and the generated module imports classes by the name they are declared with; export it as ${className} too (export { ${className} }).`;
}
