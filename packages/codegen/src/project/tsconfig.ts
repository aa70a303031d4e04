import * as fs from 'node:fs';
import * as path from 'node:path';
import { ts } from 'ts-morph';

/** Where a problem with the tsconfig is: an absolute path, and the 1-based line and column when known. */
export interface ConfigLocation {
  file: string;
  line?: number;
  column?: number;
}

/**
 * The project cannot be read: no tsconfig where `project` points, or one that does not parse.
 * A usage error (the CLI exits 2), not a problem in the user's code.
 */
export class ProjectConfigError extends Error {
  override name = 'ProjectConfigError';
  constructor(
    /** What is wrong and what to do, without the location. */
    readonly reason: string,
    readonly location: ConfigLocation,
  ) {
    super(`${formatLocation(location, location.file)}: ${reason}`);
  }
}

/** `file:line:col`, or just the file, with the file as given. */
export function formatLocation(location: ConfigLocation, file: string): string {
  return location.line === undefined ? file : `${file}:${location.line}:${location.column}`;
}

/** The parts of a parsed tsconfig the generator and the watcher use. */
export interface ProjectConfig {
  /** Absolute path of the tsconfig file. */
  tsconfig: string;
  options: ts.CompilerOptions;
  /** The source files the tsconfig selects. */
  fileNames: string[];
  /** The directories its `include` globs reach, and whether each is searched recursively. */
  directories: Array<{ dir: string; recursive: boolean }>;
  /** How the tsconfig selects files, for messages: `include: ["src"]`. */
  selection: string;
}

/**
 * The config errors that stop ts-morph from reading the project: a file that does not parse, and
 * an `extends` that cannot be read (TS5083, TS6053, TS18001). Others (an option this TypeScript
 * does not know, a deprecation) leave a project that can still be scanned, and a project built
 * with another TypeScript version may well be right about them.
 */
const FATAL_OPTION_ERRORS = new Set([5083, 6053, 18001]);

/**
 * Reads the tsconfig `project` points at, as `tsc -p` does: a file, or a directory holding a
 * `tsconfig.json`. Throws `ProjectConfigError` with the first problem and what to do about it.
 */
export function readProjectConfig(project: string): ProjectConfig {
  const tsconfig = locateTsconfig(path.resolve(project));
  // The file's own syntax errors are not among the parsed command line's errors.
  const syntax = ts.parseConfigFileTextToJson(tsconfig, readText(tsconfig)).error;
  if (syntax) throw configError(syntax, 1, tsconfig);
  let fatal: ts.Diagnostic | undefined;
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => void (fatal ??= diagnostic),
  });
  const errors = [
    ...(fatal ? [fatal] : []),
    ...(parsed?.errors ?? []).filter((d) => isSyntaxError(d) || FATAL_OPTION_ERRORS.has(d.code)),
  ].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0 || !parsed) throw configError(errors[0], errors.length, tsconfig);
  if (parsed.options.experimentalDecorators !== true) throw decoratorsOff(tsconfig);
  const directories = Object.entries(parsed.wildcardDirectories ?? {}).map(([dir, flags]) => ({
    dir: path.resolve(dir),
    recursive: (flags & ts.WatchDirectoryFlags.Recursive) !== 0,
  }));
  return {
    tsconfig,
    options: parsed.options,
    fileNames: parsed.fileNames.map((f) => path.resolve(f)),
    directories,
    selection: describeSelection(parsed.raw),
  };
}

const PASS_TSCONFIG = "pass the project's tsconfig file with --project <path>";
const NOT_FOUND_HINT =
  `run tools-codegen in the project's folder, ${PASS_TSCONFIG}, or create one (docs/getting-started.md has one with the settings toolwright needs).`;

/**
 * Without `experimentalDecorators` TypeScript compiles `@Tool` as a standard (TC39) decorator,
 * which cannot decorate parameters and receives other arguments: the build fails with TS1206 and
 * the run time cannot register the tools. Points at the setting that is false, else at
 * `compilerOptions`, in the tsconfig itself.
 */
function decoratorsOff(tsconfig: string): ProjectConfigError {
  const lines = readText(tsconfig).split('\n');
  const at = (pattern: RegExp) => {
    const line = lines.findIndex((text) => pattern.test(text));
    return line === -1 ? undefined : { file: tsconfig, line: line + 1, column: lines[line].search(pattern) + 1 };
  };
  const setting = at(/"experimentalDecorators"/);
  const location = setting ?? at(/"compilerOptions"/) ?? { file: tsconfig, line: 1, column: 1 };
  const state = setting ? 'is not true' : 'is not set';
  return new ProjectConfigError(
    `"experimentalDecorators" ${state}; set "experimentalDecorators": true in compilerOptions: ` +
      "toolwright's @Tool, @Param and @ToolGroup are TypeScript's experimental decorators, and without the flag TypeScript " +
      'compiles them as standard decorators, which cannot decorate parameters (tsc: TS1206).',
    location,
  );
}

/** TypeScript numbers its syntax errors 1000-1999. */
function isSyntaxError(diagnostic: ts.Diagnostic): boolean {
  return diagnostic.code >= 1000 && diagnostic.code < 2000;
}

function locateTsconfig(project: string): string {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(project);
  } catch {
    throw new ProjectConfigError(`not found; ${NOT_FOUND_HINT}`, { file: project });
  }
  if (!stat.isDirectory()) return project;
  const inside = path.join(project, 'tsconfig.json');
  if (fs.existsSync(inside)) return inside;
  throw new ProjectConfigError(`a directory without a tsconfig.json; ${PASS_TSCONFIG}, or create one there.`, { file: project });
}

function readText(tsconfig: string): string {
  try {
    return fs.readFileSync(tsconfig, 'utf8');
  } catch (error) {
    throw new ProjectConfigError(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); ${PASS_TSCONFIG}.`, { file: tsconfig });
  }
}

function configError(first: ts.Diagnostic | undefined, count: number, tsconfig: string): ProjectConfigError {
  if (!first) return new ProjectConfigError('could not be read; check that it is a valid tsconfig.', { file: tsconfig });
  const text = ts.flattenDiagnosticMessageText(first.messageText, ' ').replace(/\.$/, '');
  const more = count > 1 ? ` (and ${count - 1} more problem${count === 2 ? '' : 's'})` : '';
  const reason = `${text}${more}; fix the tsconfig (tsc -p reports the same).`;
  if (!first.file || first.start === undefined) return new ProjectConfigError(reason, { file: tsconfig });
  const { line, character } = first.file.getLineAndCharacterOfPosition(first.start);
  return new ProjectConfigError(reason, { file: path.resolve(first.file.fileName), line: line + 1, column: character + 1 });
}

function describeSelection(raw: { files?: unknown; include?: unknown } | undefined): string {
  const parts: string[] = [];
  if (raw?.files !== undefined) parts.push(`files: ${JSON.stringify(raw.files)}`);
  if (raw?.include !== undefined) parts.push(`include: ${JSON.stringify(raw.include)}`);
  return parts.length > 0 ? parts.join(', ') : 'no "include", so every .ts file under its directory';
}
