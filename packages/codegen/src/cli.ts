#!/usr/bin/env node
import * as path from 'node:path';
import * as fs from 'node:fs';
import { generate, type GenerateOptions, type GenerateResult } from './generate';
import { formatDiagnostic, summarize } from './lint/format-diagnostics';
import { watchProject } from './watch';

const HELP = `tools-codegen: TypeScript @Tool methods → Claude tool definitions and a manifest module

Usage: tools-codegen [options]

  --project <tsconfig>  the project to read (default: ./tsconfig.json)
  --out <file>          the module to write (default: src/tools.generated.ts next to the tsconfig)
  --check               write nothing; exit 1 with a one-line reason when the file is stale (for CI)
  --watch               regenerate whenever a source file changes
  --json [file]         also write the definitions as JSON (default: the --out path with .json)
  --allow-any           accept any/unknown as "any JSON value" instead of reporting them
  --help                show this help

Exit codes: 0 done; 1 errors in the code, or --check found the file stale; 2 bad usage.`;

interface CliOptions extends GenerateOptions {
  check: boolean;
  watch: boolean;
}

class UsageError extends Error {}

function parseArguments(argv: readonly string[], cwd: string): CliOptions | 'help' {
  const options: CliOptions = { project: path.resolve(cwd, 'tsconfig.json'), check: false, watch: false };
  let json: string | true | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${arg} needs a value.`);
      return path.resolve(cwd, next);
    };
    switch (arg) {
      case '--help':
      case '-h':
        return 'help';
      case '--project':
      case '-p':
        options.project = value();
        break;
      case '--out':
        options.out = value();
        break;
      case '--check':
        options.check = true;
        break;
      case '--watch':
        options.watch = true;
        break;
      case '--allow-any':
        options.allowAny = true;
        break;
      case '--json':
        json = argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? value() : true;
        break;
      default:
        throw new UsageError(`unknown option "${arg}".`);
    }
  }
  if (options.check && options.watch) throw new UsageError('--check and --watch cannot be used together.');
  if (json !== undefined) {
    const out = options.out ?? path.join(path.dirname(options.project), 'src', 'tools.generated.ts');
    options.json = json === true ? out.replace(/\.[cm]?ts$/, '') + '.json' : json;
  }
  return options;
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
      console.log(`tools-codegen: ${out} is up to date (${result.tools.length} tools).`);
      return 0;
    }
    console.error(`tools-codegen: ${out} is stale: ${staleReason(result)}; run tools-codegen and commit the result.`);
    return 1;
  }
  console.log(`tools-codegen: ${result.written ? 'wrote' : 'unchanged'} ${out} (${result.tools.length} tools).`);
  return 0;
}

function staleReason(result: GenerateResult): string {
  if (!fs.existsSync(result.outFile)) return 'the file does not exist';
  const current = fs.readFileSync(result.outFile, 'utf8').split('\n');
  const expected = result.code.split('\n');
  const line = expected.findIndex((text, i) => current[i] !== text);
  return `it differs from the generated code at line ${(line === -1 ? expected.length : line) + 1}`;
}

export function main(argv: readonly string[], cwd = process.cwd()): number | 'watching' {
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
  if (!fs.existsSync(options.project)) {
    console.error(`tools-codegen: no tsconfig at ${path.relative(cwd, options.project) || options.project}; pass the project's tsconfig with --project.`);
    return 2;
  }
  const cliOptions = options;
  if (cliOptions.watch) {
    watchProject(cliOptions, {
      onRun(result, changed) {
        if (changed.length > 0) console.log(`tools-codegen: changed ${changed.map((f) => path.relative(cwd, f)).join(', ')}`);
        report(result, cliOptions, cwd);
      },
    });
    return 'watching';
  }
  return report(generate({ ...cliOptions, write: !cliOptions.check }), cliOptions, cwd);
}

if (require.main === module) {
  const code = main(process.argv.slice(2));
  if (code !== 'watching') process.exitCode = code;
}
