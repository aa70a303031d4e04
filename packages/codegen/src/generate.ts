import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileSystemRefreshResult, Project, type SourceFile } from 'ts-morph';
import { emitModule } from './emit/emit-module';
import { Diagnostics, type Diagnostic } from './lint/diagnostic';
import { ExampleValidator } from './lint/example-validator';
import { buildToolModel } from './model/build-tool-model';
import type { ToolDefinition, ToolModel } from './model/tool-model';
import { importExtensionFor, type ImportExtension } from './project/import-extension';
import { readProjectConfig, type ProjectConfig } from './project/tsconfig';
import { findForeignToolDecorators, findTools } from './scan/find-tools';
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
  /** Whether the file on disk already had exactly this content. */
  upToDate: boolean;
  /** Whether this run wrote the file (not on errors, not with `write: false`, not when up to date). */
  written: boolean;
  /** The extension the generated imports carry. */
  importExtension: ImportExtension;
}

/**
 * A generator bound to one ts-morph `Project`, reused across runs (watch mode refreshes the
 * files that changed instead of re-reading the program).
 */
export class Generator {
  readonly project: Project;
  readonly outFile: string;
  readonly config: ProjectConfig;
  readonly importExtension: ImportExtension;
  private readonly tsconfig: string;

  /** Throws `ProjectConfigError` when the tsconfig is missing or does not parse. */
  constructor(private readonly options: GenerateOptions) {
    this.config = readProjectConfig(options.project);
    this.tsconfig = this.config.tsconfig;
    this.outFile = path.resolve(options.out ?? path.join(path.dirname(this.tsconfig), 'src', 'tools.generated.ts'));
    this.importExtension = options.importExtension ?? importExtensionFor(this.config.options, this.outFile);
    this.project = new Project({ tsConfigFilePath: this.tsconfig, skipFileDependencyResolution: true });
  }

  /** The project's own source files, without declarations and without the generated module. */
  sourceFiles(): SourceFile[] {
    return this.project
      .getSourceFiles()
      .filter((f) => !f.isDeclarationFile() && !f.isInNodeModules() && path.resolve(f.getFilePath()) !== this.outFile)
      .sort((a, b) => a.getFilePath().localeCompare(b.getFilePath()));
  }

  /**
   * Re-reads the files that changed on disk; returns their paths. Throws `ProjectConfigError`
   * when the tsconfig no longer parses.
   */
  refresh(): string[] {
    readProjectConfig(this.tsconfig);
    const changed: string[] = [];
    for (const file of this.sourceFiles()) {
      const result = file.refreshFromFileSystemSync();
      if (result !== FileSystemRefreshResult.NoChange) changed.push(file.getFilePath());
    }
    const known = new Set(this.project.getSourceFiles().map((f) => f.getFilePath()));
    this.project.addSourceFilesFromTsConfig(this.tsconfig);
    for (const file of this.sourceFiles()) {
      if (!known.has(file.getFilePath())) changed.push(file.getFilePath());
    }
    return changed;
  }

  run(): GenerateResult {
    const diagnostics = new Diagnostics();
    const context = {
      builder: new SchemaBuilder(diagnostics, { allowAny: this.options.allowAny ?? false }),
      diagnostics,
      examples: new ExampleValidator(),
    };
    const tools: ToolModel[] = [];
    const byName = new Map<string, ToolModel>();
    const found = findTools(this.sourceFiles());
    for (const scanned of found) {
      const model = buildToolModel(scanned, context);
      if (!model) continue;
      const first = byName.get(model.name);
      if (first) {
        diagnostics.error(scanned.method.getNameNode(), [`${scanned.className}.${scanned.methodName}`],
          `tool name "${model.name}" is already used by ${first.provider.className}.${first.method}; tool names must be unique, set @Tool({ name }).`);
      }
      byName.set(model.name, first ?? model);
      tools.push(model);
    }
    if (found.length === 0) this.reportNoTools(diagnostics);
    this.reportCycles(tools, diagnostics);
    const code = emitModule(tools, this.outFile, this.importExtension);
    const upToDate = readIfExists(this.outFile) === code;
    const canWrite = this.options.write !== false && diagnostics.errorCount === 0;
    if (canWrite && !upToDate) {
      fs.mkdirSync(path.dirname(this.outFile), { recursive: true });
      fs.writeFileSync(this.outFile, code);
    }
    if (canWrite && this.options.json) {
      const json = `${JSON.stringify(tools.map((t) => t.definition satisfies ToolDefinition), null, 2)}\n`;
      if (readIfExists(this.options.json) !== json) fs.writeFileSync(this.options.json, json);
    }
    return {
      tools,
      diagnostics: diagnostics.all,
      code,
      outFile: this.outFile,
      upToDate,
      written: canWrite && !upToDate,
      importExtension: this.importExtension,
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
    for (const tool of tools) {
      const classes = [tool.provider, ...(tool.input.kind === 'dto' ? [tool.input] : [])];
      for (const { file, className } of classes) {
        const source = this.project.getSourceFile(file);
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

/** Reads the project, writes the manifest module (unless there are errors) and reports. */
export function generate(options: GenerateOptions): GenerateResult {
  return new Generator(options).run();
}

function readIfExists(file: string): string | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}
