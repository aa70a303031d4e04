#!/usr/bin/env node
import * as path from 'node:path';
import * as fs from 'node:fs';
import { generate, type GenerateOptions, type GenerateResult } from './generate';
import { formatDiagnostic, summarize } from './lint/format-diagnostics';
import { IMPORT_EXTENSIONS, type ImportExtension } from './project/import-extension';
import { ProjectConfigError, formatLocation } from './project/tsconfig';
import { watchProject, type WatchHandle } from './watch';

interface CliOptions extends GenerateOptions {
  check: boolean;
  watch: boolean;
}

class UsageError extends Error {}

/** One flag: how it reads its value (if any) into the options, and its line in `--help`. */
interface Flag {
  names: string[];
  value?: string;
  /** The value may be left out (`--json` alone). */
  optional?: boolean;
  help: string;
  apply(options: CliOptions, value: string | undefined, cwd: string): void;
}

const FLAGS: Flag[] = [
  {
    names: ['--project', '-p'],
    value: '<tsconfig>',
    help: 'the project to read: its tsconfig, or a directory holding one (default: ./tsconfig.json)',
    apply: (o, v, cwd) => void (o.project = path.resolve(cwd, v!)),
  },
  {
    names: ['--out'],
    value: '<file>',
    help: 'the module to write (default: src/tools.generated.ts next to the tsconfig)',
    apply: (o, v, cwd) => void (o.out = path.resolve(cwd, v!)),
  },
  {
    names: ['--check'],
    help: 'write nothing; exit 1 with a one-line reason when the file is stale (for CI)',
    apply: (o) => void (o.check = true),
  },
  {
    names: ['--watch'],
    help: "regenerate whenever a source file under the tsconfig's include changes",
    apply: (o) => void (o.watch = true),
  },
  {
    names: ['--json'],
    value: '[file]',
    optional: true,
    help: 'also write the definitions as JSON (default: the --out path with .json)',
    apply: (o, v, cwd) => void (o.json = v === undefined ? '' : path.resolve(cwd, v)),
  },
  {
    names: ['--allow-any'],
    help: 'accept any/unknown as "any JSON value" instead of reporting them',
    apply: (o) => void (o.allowAny = true),
  },
  {
    names: ['--import-extension'],
    value: '<js|ts|none>',
    help: "the extension of the generated imports (default: what the tsconfig's module settings need)",
    apply(o, v) {
      if (!IMPORT_EXTENSIONS.includes(v as ImportExtension)) {
        throw new UsageError(`--import-extension takes ${IMPORT_EXTENSIONS.join(', ')}, got "${v}".`);
      }
      o.importExtension = v as ImportExtension;
    },
  },
  { names: ['--help', '-h'], help: 'show this help', apply: () => undefined },
];

const HELP = [
  'tools-codegen: TypeScript @Tool methods → Claude tool definitions and a manifest module',
  '',
  'Usage: tools-codegen [options]',
  '',
  ...FLAGS.map((f) => `  ${`${f.names[0]}${f.value ? ` ${f.value}` : ''}`.padEnd(34)}${f.help}`),
  '',
  'Exit codes: 0 done; 1 errors in the code, or --check found the file stale;',
  '2 bad usage (unknown flag, missing or malformed tsconfig).',
].join('\n');

function parseArguments(argv: readonly string[], cwd: string): CliOptions | 'help' {
  const options: CliOptions = { project: path.resolve(cwd, 'tsconfig.json'), check: false, watch: false };
  for (let i = 0; i < argv.length; i++) {
    const [arg, inline] = splitInline(argv[i]);
    const flag = FLAGS.find((f) => f.names.includes(arg));
    if (!flag) throw new UsageError(`unknown option "${argv[i]}".`);
    if (arg === '--help' || arg === '-h') return 'help';
    let value = inline;
    if (flag.value === undefined && value !== undefined) throw new UsageError(`${arg} takes no value.`);
    if (flag.value !== undefined && value === undefined) {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('-')) value = argv[++i];
      else if (!flag.optional) throw new UsageError(`${arg} needs a value: ${arg} ${flag.value}.`);
    }
    flag.apply(options, value, cwd);
  }
  if (options.check && options.watch) throw new UsageError('--check and --watch cannot be used together.');
  if (options.json !== undefined) {
    const out = options.out ?? path.join(path.dirname(options.project), 'src', 'tools.generated.ts');
    if (options.json === '') options.json = out.replace(/\.[cm]?ts$/, '') + '.json';
  }
  return options;
}

/** `--out=file` is read as `--out file`. */
function splitInline(arg: string): [string, string | undefined] {
  const equals = arg.indexOf('=');
  return arg.startsWith('--') && equals > 0 ? [arg.slice(0, equals), arg.slice(equals + 1)] : [arg, undefined];
}

/** Prints diagnostics and what happened; returns the exit code. */
function report(result: GenerateResult, options: CliOptions, cwd: string): number {
  for (const diagnostic of result.diagnostics) console.error(formatDiagnostic(diagnostic, cwd));
  const out = path.relative(cwd, result.outFile);
  const errors = result.diagnostics.some((d) => d.severity === 'error');
  if (result.diagnostics.length > 0) console.error(`tools-codegen: ${summarize(result.diagnostics)}`);
  if (errors) {
    console.error(`tools-codegen: ${out} was not ${options.check ? 'checked' : 'written'}; fix the errors above.`);
    return 1;
  }
  if (options.check) {
    if (result.upToDate) {
      console.log(`tools-codegen: ${out} is up to date (${countTools(result.tools.length)}).`);
      return 0;
    }
    if (!fs.existsSync(result.outFile)) {
      console.error(
        `tools-codegen: ${out} does not exist yet: run tools-codegen without --check to write it ` +
          '(the project imports its toolManifest), then commit it.',
      );
      return 1;
    }
    console.error(`tools-codegen: ${out} is stale: ${staleReason(result, cwd)}; run tools-codegen and commit the result.`);
    return 1;
  }
  console.log(`tools-codegen: ${result.written ? 'wrote' : 'unchanged'} ${out} (${countTools(result.tools.length)}).`);
  return 0;
}

function countTools(count: number): string {
  return `${count} tool${count === 1 ? '' : 's'}`;
}

function staleReason(result: GenerateResult, cwd: string): string {
  const manifest = firstDifference(result.outFile, result.code);
  if (manifest !== undefined) return `it differs from the generated code at line ${manifest}`;
  const checks = path.relative(cwd, result.checksFile);
  if (!fs.existsSync(result.checksFile)) return `its compiled checks ${checks} do not exist`;
  return `its compiled checks ${checks} differ from the generated code at line ${firstDifference(result.checksFile, result.checksCode) ?? 1}`;
}

/** The first line (from 1) where `file` and `code` differ; `undefined` when they are the same. */
function firstDifference(file: string, code: string): number | undefined {
  const current = fs.readFileSync(file, 'utf8').split('\n');
  const expected = code.split('\n');
  const line = expected.findIndex((text, i) => current[i] !== text);
  if (line !== -1) return line + 1;
  return current.length === expected.length ? undefined : expected.length + 1;
}

/** One line, the path relative to where the command ran. */
function describeConfigError(error: ProjectConfigError, cwd: string): string {
  return `tools-codegen: ${formatLocation(error.location, path.relative(cwd, error.location.file) || error.location.file)}: ${error.reason}`;
}

/** Runs the command; returns its exit code, or, with `--watch`, the running watcher. */
export function main(argv: readonly string[], cwd = process.cwd()): number | WatchHandle {
  let options: CliOptions | 'help';
  try {
    options = parseArguments(argv, cwd);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`tools-codegen: ${error.message}\n\n${HELP}`);
    return 2;
  }
  if (options === 'help') {
    console.log(HELP);
    return 0;
  }
  const cliOptions = options;
  try {
    if (cliOptions.watch) {
      const handle = watchProject(cliOptions, {
        onRun(result, changed) {
          if (changed.length > 0) console.log(`tools-codegen: changed ${changed.map((f) => path.relative(cwd, f)).join(', ')}`);
          report(result, cliOptions, cwd);
        },
        onError(error) {
          if (!(error instanceof ProjectConfigError)) throw error;
          console.error(`${describeConfigError(error, cwd)} Still watching.`);
        },
      });
      const roots = handle.roots.map((dir) => path.relative(cwd, dir) || '.').join(', ');
      const count = handle.directories.length;
      console.log(`tools-codegen: watching ${roots} (${count} director${count === 1 ? 'y' : 'ies'}); Ctrl-C to stop.`);
      return handle;
    }
    return report(generate({ ...cliOptions, write: !cliOptions.check }), cliOptions, cwd);
  } catch (error) {
    if (!(error instanceof ProjectConfigError)) throw error;
    console.error(describeConfigError(error, cwd));
    return 2;
  }
}

if (require.main === module) {
  const code = main(process.argv.slice(2));
  if (typeof code === 'number') process.exitCode = code;
}
