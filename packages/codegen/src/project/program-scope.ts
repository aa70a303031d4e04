import * as fs from 'node:fs';
import { ts, type Project, type ResolutionHostFactory, type SourceFile } from 'ts-morph';
import { TOOLWRIGHT_CORE } from '../scan/decorator-origin';
import { packageNameOf } from '../scan/package-name';

/**
 * How much of the dependency graph the program loads. `full`: every import of every file, as
 * `tsc` does. `decorators`: the same, except that the imports `@toolwright/core`'s own
 * declaration files make of other packages (the Anthropic SDK, Ajv, and `@types/node` through
 * the SDK: nine files in ten of a small project's program) are left unresolved.
 *
 * The answer cannot change when the project's files take nothing from `@toolwright/core` but
 * its decorators, whose declarations the scan reads only for where they are: the types of a
 * tool's input are the project's own and those of the packages it imports itself, and those
 * imports are resolved as always. `Generator` checks what the narrow program cannot show by
 * itself (see `narrowProgramHolds`) and loads the full one when any check fails.
 */
export type ProgramScope = 'full' | 'decorators';

/** The names a tools file imports from `@toolwright/core` for the narrow program to be exact. */
const DECORATORS = new Set(['Tool', 'ToolGroup', 'Param', 'Input', 'Ctx']);

/** `import { A, B as C } from '@toolwright/core'` (also `import type`), up to the module's opening quote. */
const NAMED_IMPORT = /import\s+(?:type\s+)?\{([^{}]*)\}\s*from\s*$/;
const CORE_SPECIFIER = /(['"])@toolwright\/core(\/[^'"]*)?\1/g;

/**
 * The scope for a project whose source files hold `texts`: `decorators` when every mention of
 * `@toolwright/core` in them is a named import of decorators only. Read from the text, before
 * anything is parsed, and on the safe side: a comment or a string naming the package, a
 * namespace import, a re-export or a subpath (`@toolwright/core/testing`) all give `full`.
 */
export function scopeFor(texts: Iterable<string>): ProgramScope {
  for (const text of texts) {
    for (const match of text.matchAll(CORE_SPECIFIER)) {
      if (match[2] !== undefined) return 'full';
      const clause = NAMED_IMPORT.exec(text.slice(Math.max(0, match.index - 2_000), match.index));
      if (!clause) return 'full';
      for (const element of clause[1].split(',')) {
        const imported = element.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0];
        if (imported !== '' && !DECORATORS.has(imported)) return 'full';
      }
    }
  }
  return 'decorators';
}

/** The text of each file that can be read (one that cannot is not added to the program either). */
export function* readTexts(files: readonly string[]): Iterable<string> {
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    yield text;
  }
}

/**
 * Module resolution as TypeScript's own (same mode per import, a shared cache), except that an
 * import made by a file of `@toolwright/core` is not resolved when it leaves the package. Its
 * bare `import 'x'` statements are still resolved: they exist for what they declare globally
 * (`reflect-metadata`).
 *
 * The cache lasts until `forget` (the generator calls it when files changed), so that every
 * program built in between shares it, as TypeScript's own watch does. A host that resolves
 * modules itself must also hand TypeScript that cache, or TypeScript looks up the nearest
 * `package.json` of each root file again on every program (the module format of a `.ts` file
 * under `node16`/`nodenext`): hundreds of file-system calls a watch cycle. ts-morph passes only
 * the resolver through, onto the compiler host TypeScript calls it on, so the resolver gives that
 * host the cache the first time it runs; without it every program is still right, only slower.
 */
export class DecoratorsOnlyResolution {
  private cache: ts.ModuleResolutionCache | undefined;

  forget(): void {
    this.cache = undefined;
  }

  readonly factory: ResolutionHostFactory = (host, getCompilerOptions) => {
    const canonical = ts.sys.useCaseSensitiveFileNames ? (f: string) => f : (f: string) => f.toLowerCase();
    const cache = () => (this.cache ??= ts.createModuleResolutionCache(host.getCurrentDirectory?.() ?? process.cwd(), canonical, getCompilerOptions()));
    return {
      resolveModuleNames(this: unknown, names, containingFile, _reused, redirected, options, containingSourceFile) {
        const compilerHost = this as Partial<ts.CompilerHost> | undefined;
        if (typeof compilerHost === 'object' && compilerHost !== null && !compilerHost.getModuleResolutionCache) compilerHost.getModuleResolutionCache = cache;
        const inCore = packageNameOf(containingFile) === TOOLWRIGHT_CORE;
        return names.map((name) => {
          const literal = containingSourceFile && moduleLiteral(containingSourceFile, name);
          const mode = literal ? ts.getModeForUsageLocation(containingSourceFile!, literal, options) : undefined;
          const resolved = ts.resolveModuleName(name, containingFile, options, host, cache(), redirected, mode).resolvedModule;
          if (!resolved || !inCore || (literal && isBareImport(literal))) return resolved;
          return packageNameOf(resolved.resolvedFileName) === TOOLWRIGHT_CORE ? resolved : undefined;
        });
      },
    };
  };
}

/** The internals of `ts.SourceFile` read here: stable for years, and what ts-morph itself reads. */
interface CompilerFile extends ts.SourceFile {
  imports?: readonly ts.StringLiteralLike[];
  moduleAugmentations?: readonly (ts.StringLiteral | ts.Identifier)[];
}

function moduleLiteral(file: ts.SourceFile, name: string): ts.StringLiteralLike | undefined {
  const { imports, moduleAugmentations } = file as CompilerFile;
  return (
    imports?.find((literal) => literal.text === name) ??
    moduleAugmentations?.find((literal): literal is ts.StringLiteral => ts.isStringLiteral(literal) && literal.text === name)
  );
}

function isBareImport(literal: ts.StringLiteralLike): boolean {
  return ts.isImportDeclaration(literal.parent) && literal.parent.importClause === undefined;
}

/**
 * What the narrow program cannot show by itself, checked on it: no file outside the project and
 * the core package (and the generated modules) imports the core (a DTO package built on its
 * types would see them unresolved), and every name the project's files use resolves. The files
 * left out reach the project's only through the global scope, so a name that does not resolve
 * here may be one they declare (`Buffer` or `URL` from `@types/node`, reached through the SDK);
 * a project with such a name, or with a name that resolves nowhere (a type error), gets the
 * full program and the same answer as before. Name resolution only, not a type check: the
 * free names of each file, each asked of the checker once.
 */
export function narrowProgramHolds(
  project: Project,
  projectFiles: readonly SourceFile[],
  isGenerated: (file: ts.SourceFile) => boolean,
  /** Files already known to resolve (see `Generator`); the files found to resolve are added. */
  resolved: WeakSet<ts.SourceFile>,
): boolean {
  const program = project.getProgram().compilerObject;
  const own = new Set(projectFiles.map((f) => f.compilerNode));
  for (const file of program.getSourceFiles()) {
    if (own.has(file) || isGenerated(file) || packageNameOf(file.fileName) === TOOLWRIGHT_CORE) continue;
    if ((file as CompilerFile).imports?.some((literal) => literal.text === TOOLWRIGHT_CORE || literal.text.startsWith(`${TOOLWRIGHT_CORE}/`))) return false;
  }
  if (program.getGlobalDiagnostics().some((d) => d.category === ts.DiagnosticCategory.Error)) return false;
  const checker = program.getTypeChecker();
  for (const { compilerNode: file } of projectFiles) {
    if (resolved.has(file)) continue;
    if (!allNamesResolve(file, checker)) return false;
    resolved.add(file);
  }
  return true;
}

/**
 * Whether every identifier of `file` that names something by itself (not a member after a dot,
 * not the name a declaration introduces, not a label) resolves to a symbol.
 */
function allNamesResolve(file: ts.SourceFile, checker: ts.TypeChecker): boolean {
  const unresolved = (node: ts.Node): boolean => {
    // `{ a }` is a property named after a value: the value must resolve.
    if (ts.isShorthandPropertyAssignment(node)) return !resolves(checker.getShorthandAssignmentValueSymbol(node)) || (ts.forEachChild(node, unresolved) ?? false);
    if (ts.isIdentifier(node)) return isFreeName(node) && !resolves(checker.getSymbolAtLocation(node));
    return ts.forEachChild(node, unresolved) ?? false;
  };
  return !ts.forEachChild(file, unresolved);
}

/** The checker's own symbols without a declaration: `undefined`, `arguments`, `globalThis`. */
const INTRINSIC = new Set(['undefined', 'arguments', 'globalThis']);

/** A name that does not resolve has no symbol, or (in a type) the checker's "unknown" symbol, which has no declaration. */
function resolves(symbol: ts.Symbol | undefined): boolean {
  return symbol !== undefined && ((symbol.declarations?.length ?? 0) > 0 || INTRINSIC.has(symbol.name));
}

function isFreeName(node: ts.Identifier): boolean {
  const parent = node.parent as ts.Node & { name?: ts.Node; label?: ts.Node; propertyName?: ts.Node };
  if (parent.name === node || parent.label === node || parent.propertyName === node) return false;
  if (ts.isQualifiedName(parent)) return parent.left === node;
  return true;
}
