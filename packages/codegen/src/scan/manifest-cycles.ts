import * as path from 'node:path';
import { type ExportDeclaration, type ImportDeclaration, type Project, type SourceFile } from 'ts-morph';

/** A file the generated module imports, and the class it imports from it. */
export interface ImportedClass {
  file: SourceFile;
  className: string;
}

/** A chain of run-time imports from a tools file back to the generated module. */
export interface ManifestCycle extends ImportedClass {
  /** The import in `file` the chain starts with. */
  firstImport: ImportDeclaration | ExportDeclaration;
  /** The files along the chain, `file` first, the generated module last. */
  chain: string[];
}

type Edge = { declaration: ImportDeclaration | ExportDeclaration; target: string };

/**
 * The generated module imports every tools and DTO class at load time, so if one of those files
 * imports the generated module (directly, or through a module that does), one of the two is
 * evaluated first and reads the other's classes before they exist: `ReferenceError: Cannot access
 * 'OrdersTools' before initialization` in ESM, an `undefined` provider in CommonJS. Type-only
 * imports are erased and dynamic `import()` runs later, so neither counts.
 */
export function findManifestCycles(project: Project, imported: readonly ImportedClass[], outFile: string): ManifestCycle[] {
  const edges = new Map<string, Edge[]>();
  const edgesOf = (file: string): Edge[] => {
    let found = edges.get(file);
    if (!found) {
      const source = project.getSourceFile(file);
      edges.set(file, (found = source ? runtimeImports(source, project, outFile) : []));
    }
    return found;
  };
  const cycles: ManifestCycle[] = [];
  const reported = new Set<string>();
  const importedFiles = new Set(imported.map((i) => i.file.getFilePath() as string));
  for (const { file, className } of imported) {
    const start = file.getFilePath();
    if (reported.has(start)) continue;
    reported.add(start);
    const found = shortestPathTo(start, outFile, edgesOf);
    if (found) cycles.push({ file, className, firstImport: found.first, chain: found.chain });
  }
  // A chain through another imported file is that file's cycle, reported on its own.
  return cycles.filter((cycle) => !cycle.chain.slice(1, -1).some((f) => importedFiles.has(f)));
}

function shortestPathTo(
  start: string,
  goal: string,
  edgesOf: (file: string) => Edge[],
): { first: Edge['declaration']; chain: string[] } | undefined {
  const previous = new Map<string, string>();
  const firstEdge = new Map<string, Edge['declaration']>();
  const queue = [start];
  previous.set(start, start);
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    for (const edge of edgesOf(file)) {
      if (previous.has(edge.target)) continue;
      previous.set(edge.target, file);
      firstEdge.set(edge.target, file === start ? edge.declaration : firstEdge.get(file)!);
      if (edge.target === goal) {
        const chain = [goal];
        for (let at = goal; at !== start; ) chain.unshift((at = previous.get(at)!));
        return { first: firstEdge.get(goal)!, chain };
      }
      queue.push(edge.target);
    }
  }
  return undefined;
}

function runtimeImports(file: SourceFile, project: Project, outFile: string): Edge[] {
  const edges: Edge[] = [];
  const declarations: Array<ImportDeclaration | ExportDeclaration> = [
    ...file.getImportDeclarations().filter((d) => !isTypeOnlyImport(d)),
    ...file.getExportDeclarations().filter((d) => d.hasModuleSpecifier() && !d.isTypeOnly()),
  ];
  for (const declaration of declarations) {
    const target = resolveImport(declaration, project, outFile);
    if (target) edges.push({ declaration, target });
  }
  return edges;
}

function isTypeOnlyImport(declaration: ImportDeclaration): boolean {
  if (declaration.isTypeOnly()) return true;
  const clause = declaration.getImportClause();
  if (!clause || clause.getDefaultImport() || clause.getNamespaceImport()) return false;
  const named = clause.getNamedImports();
  return named.length > 0 && named.every((s) => s.isTypeOnly());
}

/**
 * The project file an import reaches. Relative specifiers are resolved by hand as well, because
 * the generated module may not exist yet (or not be part of the program) and the cycle is still
 * there as soon as it is written.
 */
function resolveImport(declaration: ImportDeclaration | ExportDeclaration, project: Project, outFile: string): string | undefined {
  const specifier = declaration.getModuleSpecifierValue();
  if (specifier === undefined) return undefined;
  if (specifier.startsWith('.')) {
    const base = path.resolve(path.dirname(declaration.getSourceFile().getFilePath()), specifier);
    for (const candidate of candidates(base)) {
      if (candidate === outFile || project.getSourceFile(candidate)) return candidate;
    }
    return undefined;
  }
  const resolved = declaration.getModuleSpecifierSourceFile();
  if (!resolved || resolved.isInNodeModules() || resolved.isDeclarationFile()) return undefined;
  return path.resolve(resolved.getFilePath());
}

function candidates(base: string): string[] {
  const stem = base.replace(/\.([cm]?)js$/, '.$1ts');
  const list = [base, stem, base.replace(/\.js$/, '.tsx')];
  for (const extension of ['.ts', '.tsx', '.mts', '.cts']) list.push(base + extension, path.join(base, `index${extension}`));
  return list;
}
