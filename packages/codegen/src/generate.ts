import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileSystemRefreshResult, Project, ts, type SourceFile } from 'ts-morph';
import { emitModule } from './emit/emit-module';
import { ChecksEmitter, checksFileFor } from './emit/emit-checks';
import { Diagnostics, type Diagnostic } from './lint/diagnostic';
import { ExampleValidator } from './lint/example-validator';
import { buildToolModel } from './model/build-tool-model';
import type { ToolDefinition, ToolModel } from './model/tool-model';
import { importExtensionFor, type ImportExtension } from './project/import-extension';
import { DecoratorsOnlyResolution, narrowProgramHolds, readTexts, scopeFor, type ProgramScope } from './project/program-scope';
import { ProjectConfigError, readProjectConfig, type ProjectConfig } from './project/tsconfig';
import { FileDependencies } from './scan/file-dependencies';
import { findForeignToolDecorators, findTools, type ScannedTool } from './scan/find-tools';
import { findManifestCycles, type ImportedClass } from './scan/manifest-cycles';
import { SchemaBuilder } from './schema/type-to-schema';

export interface GenerateOptions {
  /** Path of the tsconfig.json of the project to read, or of a directory holding one. */
  project: string;
  /** The module to write; `src/tools.generated.ts` next to the tsconfig by default. */
  out?: string;
  /** Also write the definitions as JSON to this path. */
  json?: string;
  /** Accept `any`/`unknown` as "any JSON value" instead of reporting them. */
  allowAny?: boolean;
  /** `false` computes everything but writes nothing (for `--check`). Default `true`. */
  write?: boolean;
  /**
   * The extension of the generated imports of the project's files. By default the one the
   * project's module settings need: `js` for ESM under `node16`/`nodenext`, `ts` with
   * `allowImportingTsExtensions` or `rewriteRelativeImportExtensions`, none otherwise.
   */
  importExtension?: ImportExtension;
}

export interface GenerateResult {
  tools: ToolModel[];
  diagnostics: Diagnostic[];
  /** The module's source; written only when there are no errors. */
  code: string;
  outFile: string;
  /** The source of the module of compiled input checks the manifest module imports; written with it. */
  checksCode: string;
  /** Where that module goes: beside `outFile` (`tools.generated.checks.ts`). */
  checksFile: string;
  /** Whether both files on disk already had exactly this content. */
  upToDate: boolean;
  /** Whether this run wrote the files (not on errors, not with `write: false`, not when up to date). */
  written: boolean;
  /** The extension the generated imports carry. */
  importExtension: ImportExtension;
}

/** One tool as a run built it. */
interface BuiltTool {
  scanned: ScannedTool;
  model: ToolModel | undefined;
  diagnostics: readonly Diagnostic[];
}

/**
 * The tools of one file as a run built them, kept for the next run while the files their types
 * can reach are unchanged.
 */
interface BuiltFile {
  tools: readonly BuiltTool[];
  /** The project files the file's types can reach, each as the parsed file the tools were built from. */
  reached: ReadonlyMap<string, ts.SourceFile>;
}

/** What every tool depends on: the set of project files, and those that write to the global scope. */
interface ProjectShape {
  files: string;
  globals: ReadonlyMap<string, ts.SourceFile>;
}

/**
 * A generator bound to one ts-morph `Project`, reused across runs (watch mode refreshes the
 * files that changed instead of re-reading the program). Each run keeps what it built per tool;
 * the next run builds again only the tools whose types can reach a file that changed, and the
 * rest of the result is assembled as a full run would.
 */
export class Generator {
  /** Replaced once by the full program when the narrow one does not hold (see `ProgramScope`). */
  project: Project;
  readonly outFile: string;
  readonly checksFile: string;
  readonly config: ProjectConfig;
  readonly importExtension: ImportExtension;
  private readonly tsconfig: string;
  /** By file path. */
  private built = new Map<string, BuiltFile>();
  private shape: ProjectShape | undefined;
  /** Each module as this generator last wrote it, by path. */
  private readonly written = new Map<string, { code: string; stamp: string }>();
  /** The narrow program's module resolution, its cache kept until files change. */
  private readonly resolution = new DecoratorsOnlyResolution();
  /** Compiles each structure of input schema once, and keeps each tool's check text while its model is kept. */
  private readonly checks = new ChecksEmitter();
  /** How much of the dependency graph `project` loads; it only ever widens. */
  private scope: ProgramScope;
  /**
   * The project files whose names all resolved in the narrow program, kept while the project's
   * shape is the same: a file's free names resolve to its own declarations, its imports or the
   * global scope, which only a file added or removed or a global declaration can change.
   */
  private resolvedNames: { shape: ProjectShape; files: WeakSet<ts.SourceFile> } | undefined;

  /**
   * Throws `ProjectConfigError` when the tsconfig is missing or does not parse. `reuse`: keep
   * per-tool results for the next run (a single run has no use for them).
   */
  constructor(private readonly options: GenerateOptions, private readonly reuse = true) {
    this.config = readProjectConfig(options.project);
    this.tsconfig = this.config.tsconfig;
    this.outFile = path.resolve(options.out ?? path.join(path.dirname(this.tsconfig), 'src', 'tools.generated.ts'));
    this.checksFile = checksFileFor(this.outFile);
    this.importExtension = options.importExtension ?? importExtensionFor(this.config.options, this.outFile);
    this.scope = scopeFor(readTexts(this.config.fileNames.filter((f) => !this.isGenerated(f))));
    this.project = this.createProject(this.config.fileNames);
  }

  /** The tsconfig parsed above, not again by ts-morph: the same options and files, read once. */
  private createProject(fileNames: readonly string[]): Project {
    const project = new Project({
      compilerOptions: this.config.options,
      skipFileDependencyResolution: true,
      ...(this.scope === 'decorators' ? { resolutionHost: this.resolution.factory } : {}),
    });
    for (const file of fileNames) project.addSourceFileAtPathIfExists(file);
    return project;
  }

  /**
   * Loads the full program when the narrow one no longer holds: the project's files import more
   * of the core, or do not type-check without the files it leaves out. Checked on every run, as
   * watch mode edits the files.
   */
  private settleScope(): void {
    if (this.scope === 'full') return;
    const files = this.projectFiles();
    const generated = (file: ts.SourceFile) => this.isGenerated(path.resolve(file.fileName));
    const shape = shapeOf(files);
    if (!this.resolvedNames || !isSameShape(this.resolvedNames.shape, shape)) this.resolvedNames = { shape, files: new WeakSet() };
    if (scopeFor(files.map((f) => f.getFullText())) === 'decorators' && narrowProgramHolds(this.project, files, generated, this.resolvedNames.files)) return;
    this.resolvedNames = undefined;
    this.scope = 'full';
    this.project = this.createProject(this.project.getSourceFiles().map((f) => f.getFilePath()));
    this.built = new Map();
    this.shape = undefined;
  }

  /** The project's own source files, without declarations and without the generated modules. */
  sourceFiles(): SourceFile[] {
    return this.projectFiles().filter((f) => !f.isDeclarationFile());
  }

  /** The files the tsconfig selects, its own declaration files included, without the generated modules. */
  private projectFiles(): SourceFile[] {
    return this.project
      .getSourceFiles()
      .filter((f) => !f.isInNodeModules() && !this.isGenerated(path.resolve(f.getFilePath())))
      .sort((a, b) => a.getFilePath().localeCompare(b.getFilePath()));
  }

  /**
   * Re-reads the files that changed on disk; returns their paths. `files`: the paths that may
   * have changed (what a file watcher saw), so that the others are not read again; without it,
   * every file is compared with the disk. Throws `ProjectConfigError` when the tsconfig no
   * longer parses.
   */
  refresh(files?: readonly string[]): string[] {
    const { fileNames } = readProjectConfig(this.tsconfig);
    const changed: string[] = [];
    const wanted = files && [...new Set(files.map((f) => path.resolve(f)))].filter((f) => !this.isGenerated(f));
    const candidates = wanted ? wanted.flatMap((f) => this.project.getSourceFile(f) ?? []) : this.projectFiles();
    for (const file of candidates) {
      // A deleted file is forgotten by the refresh: its path is read first.
      const filePath = file.getFilePath();
      if (file.refreshFromFileSystemSync() !== FileSystemRefreshResult.NoChange) changed.push(filePath);
    }
    // A path the project does not have yet may be a new file the tsconfig selects.
    if (!wanted || candidates.length < wanted.length) {
      for (const file of fileNames) {
        if (!this.project.getSourceFile(file) && this.project.addSourceFileAtPathIfExists(file)) changed.push(file);
      }
    }
    // A file added, removed or edited can change what an import resolves to.
    if (changed.length > 0) this.resolution.forget();
    return changed;
  }

  run(): GenerateResult {
    this.settleScope();
    const diagnostics = new Diagnostics();
    const projectFiles = this.projectFiles();
    const files = projectFiles.filter((f) => !f.isDeclarationFile());
    const reuse = this.reuse ? this.reusable(projectFiles) : undefined;
    const built = new Map<string, BuiltFile>();
    const examples = new ExampleValidator();
    const tools: ToolModel[] = [];
    const byName = new Map<string, ToolModel>();
    let found = 0;
    for (const file of files) {
      const key = file.getFilePath();
      let entry = this.built.get(key);
      if (!entry || !reuse?.unchanged(entry)) {
        entry = { tools: findTools([file]).map((scanned) => this.build(scanned, examples)), reached: reuse?.closure(key) ?? new Map() };
      }
      if (this.reuse) built.set(key, entry);
      for (const { scanned, model, diagnostics: own } of entry.tools) {
        found++;
        diagnostics.merge(own);
        if (!model) continue;
        const first = byName.get(model.name);
        if (first) {
          diagnostics.error(scanned.method.getNameNode(), [`${scanned.className}.${scanned.methodName}`],
            `tool name "${model.name}" is already used by ${first.provider.className}.${first.method}; tool names must be unique, set @Tool({ name }).`);
        }
        byName.set(model.name, first ?? model);
        tools.push(model);
      }
    }
    this.built = built;
    this.reportSyntaxErrors(files, diagnostics);
    if (found === 0 && diagnostics.errorCount === 0) this.reportNoTools(diagnostics);
    this.reportCycles(tools, diagnostics);
    // Only a module that will be written is worth compiling checks for; `--check` compares them too.
    const checks = diagnostics.errorCount === 0 ? this.checks.emit(tools) : { text: '', generation: '' };
    const checksCode = checks.text;
    const code = emitModule(tools, this.outFile, this.checksFile, this.importExtension, checks.generation);
    // The checks first: whoever sees the manifest module change finds the checks it imports already there.
    const stale = [[this.checksFile, checksCode], [this.outFile, code]].filter(([file, text]) => !this.moduleOnDiskIs(file, text));
    const json = this.options.json && `${JSON.stringify(tools.map((t) => t.definition satisfies ToolDefinition), null, 2)}\n`;
    const staleJson = this.options.json !== undefined && !hasContent(this.options.json, json as string);
    const upToDate = stale.length === 0 && !staleJson;
    const canWrite = this.options.write !== false && diagnostics.errorCount === 0;
    if (canWrite) {
      for (const [file] of stale) checkTarget(file, this.tsconfig);
      for (const [file, text] of stale) {
        writeWhole(file, text);
        if (this.reuse) this.written.set(file, { code: text, stamp: stampOf(fs.statSync(file)) });
      }
      if (staleJson) writeWhole(this.options.json!, json as string);
    }
    return {
      tools,
      diagnostics: diagnostics.all,
      code,
      outFile: this.outFile,
      checksCode,
      checksFile: this.checksFile,
      upToDate,
      written: canWrite && !upToDate,
      importExtension: this.importExtension,
    };
  }

  /** The manifest module or its checks module: written by the generator, never read as the user's code. */
  private isGenerated(file: string): boolean {
    return file === this.outFile || file === this.checksFile;
  }

  /**
   * Whether `file` on disk holds exactly `code`. A file this generator wrote last, still as it
   * left it (same size and modification time), is not read back.
   */
  private moduleOnDiskIs(file: string, code: string): boolean {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) return false;
    const written = this.written.get(file);
    if (written?.stamp === stampOf(stat)) return written.code === code;
    return hasContent(file, code, stat.size);
  }

  /**
   * Syntax errors of the project's files, at file:line: a tool in a file that does not parse may be
   * left out of what the scan finds, or misread, so nothing is written until they are fixed.
   */
  private reportSyntaxErrors(files: readonly SourceFile[], diagnostics: Diagnostics): void {
    const program = this.project.getProgram().compilerObject;
    for (const file of files) {
      for (const problem of program.getSyntacticDiagnostics(file.compilerNode)) {
        const { line, character } = file.compilerNode.getLineAndCharacterOfPosition(problem.start ?? 0);
        diagnostics.errorAt(
          { file: file.getFilePath(), line: line + 1, column: character + 1 },
          `syntax error: ${ts.flattenDiagnosticMessageText(problem.messageText, ' ').replace(/\.$/, '')}; fix it and run again (nothing is written until the project parses).`,
        );
      }
    }
  }

  /** One tool on its own: its own diagnostics and memo, so that what it yields does not depend on the other tools. */
  private build(scanned: ScannedTool, examples: ExampleValidator): BuiltTool {
    const diagnostics = new Diagnostics();
    const builder = new SchemaBuilder(this.project, diagnostics, { allowAny: this.options.allowAny ?? false });
    const model = buildToolModel(scanned, { builder, diagnostics, examples });
    return { scanned, model, diagnostics: diagnostics.all };
  }

  /**
   * What this run may take from the last one. A file added or removed can change what an
   * import resolves to, and a file that writes to the global scope can change any type, so
   * either starts afresh; otherwise a file's tools are kept while every file they reach is the
   * very parsed file they were built from (ts-morph replaces a file's tree only when its text
   * changes, and then the scan starts over too: what the decorators resolve to may differ).
   */
  private reusable(files: readonly SourceFile[]): { unchanged(entry: BuiltFile): boolean; closure(file: string): ReadonlyMap<string, ts.SourceFile> } {
    const byPath = new Map(files.map((f) => [f.getFilePath() as string, f]));
    const shape = shapeOf(files);
    const sameShape = isSameShape(this.shape, shape);
    this.shape = shape;
    let dependencies: FileDependencies | undefined;
    return {
      unchanged: (entry) => sameShape && [...entry.reached].every(([file, node]) => byPath.get(file)?.compilerNode === node),
      closure: (file) => (dependencies ??= new FileDependencies(byPath, this.project.getTypeChecker().compilerObject)).closure(file),
    };
  }

  private reportCycles(tools: readonly ToolModel[], diagnostics: Diagnostics): void {
    for (const cycle of findManifestCycles(this.project, this.importedClasses(tools), this.outFile)) {
      const chain = cycle.chain.map((f) => this.projectPath(f)).join(' → ');
      diagnostics.error(cycle.firstImport, [cycle.className],
        `import cycle with the generated manifest: ${chain}. ${cycle.className} would be read before its class is defined ` +
        `("Cannot access '${cycle.className}' before initialization" at start-up); keep ${cycle.className} in a file that does not import ` +
        `${this.projectPath(this.outFile)}, and import the manifest from another file (the module or bootstrap that builds the container).`);
    }
  }

  /** The classes the generated module imports at load time, each with its file. */
  private importedClasses(tools: readonly ToolModel[]): ImportedClass[] {
    const imported: ImportedClass[] = [];
    // Tools share files: each is looked up once.
    const sources = new Map<string, SourceFile | undefined>();
    for (const tool of tools) {
      const classes = [tool.provider, ...(tool.input.kind === 'dto' ? [tool.input] : [])];
      for (const { file, className } of classes) {
        if (!sources.has(file)) sources.set(file, this.project.getSourceFile(file));
        const source = sources.get(file);
        if (source) imported.push({ file: source, className });
      }
    }
    return imported;
  }

  /**
   * An empty manifest is never what the user wants: a `@Tool` imported from somewhere else is
   * pointed at; otherwise the error says where the scan looked.
   */
  private reportNoTools(diagnostics: Diagnostics): void {
    const files = this.sourceFiles();
    const foreign = findForeignToolDecorators(files);
    for (const { decorator, where, packageName } of foreign) {
      diagnostics.error(decorator, [where],
        `this @Tool ${packageName ? `comes from '${packageName}'` : 'is not imported'}, not from '@toolwright/core', so the method is not a tool; ` +
        `import { Tool } from '@toolwright/core'.`);
    }
    if (foreign.length > 0) return;
    diagnostics.errorAt({ file: this.tsconfig, line: 1, column: 1 },
      `no @Tool methods found in the ${files.length} source file${files.length === 1 ? '' : 's'} this tsconfig selects ` +
      `(${this.config.selection}); check that @Tool is imported from '@toolwright/core' and that the tools files are inside "include".`);
  }

  private projectPath(file: string): string {
    return path.relative(path.dirname(this.tsconfig), file).split(path.sep).join('/');
  }
}

function shapeOf(files: readonly SourceFile[]): ProjectShape {
  return {
    files: files.map((f) => f.getFilePath()).join('\n'),
    globals: new Map(files.filter(FileDependencies.isGlobal).map((f) => [f.getFilePath() as string, f.compilerNode])),
  };
}

function isSameShape(previous: ProjectShape | undefined, shape: ProjectShape): boolean {
  return previous !== undefined && previous.files === shape.files && previous.globals.size === shape.globals.size &&
    [...shape.globals].every(([file, node]) => previous.globals.get(file) === node);
}

/** Reads the project, writes the manifest module (unless there are errors) and reports. */
export function generate(options: GenerateOptions): GenerateResult {
  return new Generator(options, false).run();
}

/** Whether the file holds exactly `text`; read only when its size says it may (the module is megabytes at thousands of tools). */
/**
 * Whether `file` holds `text`, with its line endings as `text` has them or as a Windows checkout
 * (git's `core.autocrlf`) turns them into CRLF: the same module either way.
 */
function hasContent(file: string, text: string, size = fs.statSync(file, { throwIfNoEntry: false })?.size): boolean {
  if (size === undefined) return false;
  const bytes = Buffer.byteLength(text);
  if (size !== bytes && size !== bytes + lineCount(text)) return false;
  const onDisk = fs.readFileSync(file, 'utf8');
  return onDisk === text || onDisk.replace(/\r\n/g, '\n') === text;
}

function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * `text` as the whole of `file`, or the file as it was: written beside it, then renamed over it,
 * so a run stopped halfway (Ctrl-C, a full disk) never leaves half a module to import.
 */
function writeWhole(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(partial, text);
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/** What the header of every module tools-codegen writes holds, near its top. */
const GENERATED_MARK = '// Generated by tools-codegen';

/**
 * Refuses to write over what tools-codegen did not write: a directory, or a file of the project's
 * own (an `--out` naming `src/tools.ts`) would be lost without a word.
 */
function checkTarget(file: string, tsconfig: string): void {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return;
  const shown = path.relative(path.dirname(tsconfig), file) || file;
  if (!stat.isFile()) {
    throw new ProjectConfigError(`${shown} is a directory, not a file tools-codegen can write; give --out a file name such as src/tools.generated.ts.`, { file });
  }
  const head = Buffer.alloc(512);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (!head.toString('utf8').includes(GENERATED_MARK)) {
    throw new ProjectConfigError(
      `${shown} exists and was not written by tools-codegen (its header has no "${GENERATED_MARK}" line), so it is left as it is. ` +
        'Give --out another file name, or delete that file if it is an old manifest.',
      { file },
    );
  }
}

function stampOf(stat: fs.Stats): string {
  return `${stat.size}:${stat.mtimeMs}`;
}
