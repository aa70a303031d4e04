import { ts, type SourceFile } from 'ts-morph';

/** The internals of `ts.SourceFile` this reads: stable for years, and what ts-morph itself reads. */
interface CompilerFile extends ts.SourceFile {
  /** Every module specifier of the file: imports, re-exports, `import('x')` types. */
  imports?: readonly ts.StringLiteralLike[];
  /** `declare global { }` and `declare module 'x' { }` blocks. */
  moduleAugmentations?: readonly (ts.StringLiteral | ts.Identifier)[];
}

/**
 * Which project files a tools file's types can reach: the file itself and the project files it
 * imports, directly or through others (type-only imports and `import('x')` types included).
 * Declarations outside the import graph reach it only through the global scope, so a file that
 * writes to it — a script without imports or exports, `declare global`, a module augmentation,
 * a `/// <reference>` — counts for every tool (`isGlobal`).
 */
export class FileDependencies {
  private readonly direct = new Map<string, string[]>();
  private readonly closures = new Map<string, ReadonlyMap<string, ts.SourceFile>>();

  /** `files`: the project's own files by path; imports of anything else are not followed. */
  constructor(
    private readonly files: ReadonlyMap<string, SourceFile>,
    private readonly checker: ts.TypeChecker,
  ) {}

  static isGlobal(file: SourceFile): boolean {
    const node = file.compilerNode as CompilerFile;
    return (
      !ts.isExternalModule(node) ||
      (node.moduleAugmentations?.length ?? 0) > 0 ||
      node.referencedFiles.length > 0 ||
      node.typeReferenceDirectives.length > 0
    );
  }

  /** The file and every project file it reaches through imports, each with its parsed tree. */
  closure(file: string): ReadonlyMap<string, ts.SourceFile> {
    let reached = this.closures.get(file);
    if (reached) return reached;
    const found = new Set([file]);
    const queue = [file];
    for (let i = 0; i < queue.length; i++) {
      for (const next of this.imported(queue[i])) {
        if (found.has(next)) continue;
        found.add(next);
        queue.push(next);
      }
    }
    reached = new Map([...found].map((f) => [f, this.files.get(f)!.compilerNode]));
    this.closures.set(file, reached);
    return reached;
  }

  private imported(file: string): string[] {
    let targets = this.direct.get(file);
    if (targets) return targets;
    targets = [];
    const node = this.files.get(file)?.compilerNode as CompilerFile | undefined;
    for (const specifier of node?.imports ?? []) {
      const declaration = this.checker.getSymbolAtLocation(specifier)?.declarations?.[0];
      const target = declaration?.getSourceFile().fileName;
      if (target !== undefined && this.files.has(target)) targets.push(target);
    }
    this.direct.set(file, targets);
    return targets;
  }
}
