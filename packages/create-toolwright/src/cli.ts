#!/usr/bin/env node
import { scaffold, TargetError } from './scaffold';
import { TEMPLATES, TEMPLATE_NAMES, isTemplateName, type TemplateName } from './templates';

const DEFAULT_DIR = 'toolwright-app';

const HELP = [
  'create-toolwright: a new project whose TypeScript classes are Claude tools',
  '',
  'Usage: npm create toolwright@latest [dir] -- [--template <name>]',
  `       (dir defaults to ${DEFAULT_DIR}; it must not exist yet, or be empty)`,
  '',
  'Options:',
  `  --template, -t <name>   ${TEMPLATE_NAMES.join(' | ')} (default: node)`,
  ...TEMPLATE_NAMES.map((name) => `      ${name.padEnd(6)} ${TEMPLATES[name].summary}`),
  '  --help, -h              show this help',
  '',
  'Nothing is asked and nothing is installed: the last lines say what to run next.',
].join('\n');

class UsageError extends Error {}

interface Arguments {
  dir: string;
  template: TemplateName;
}

function parse(argv: readonly string[]): Arguments | 'help' {
  let dir: string | undefined;
  let template: TemplateName = 'node';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return 'help';
    const equals = arg.startsWith('--template=') ? arg.slice('--template='.length) : undefined;
    if (arg === '--template' || arg === '-t' || equals !== undefined) {
      const value = equals ?? argv[++i];
      if (value === undefined) throw new UsageError(`--template needs a value: ${TEMPLATE_NAMES.join(', ')}.`);
      if (!isTemplateName(value)) throw new UsageError(`there is no template "${value}"; choose ${TEMPLATE_NAMES.join(', ')}.`);
      template = value;
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option "${arg}".`);
    } else if (dir !== undefined) {
      throw new UsageError(`one folder at a time: got "${dir}" and "${arg}".`);
    } else {
      dir = arg;
    }
  }
  return { dir: dir ?? DEFAULT_DIR, template };
}

/** Runs the command; returns its exit code. */
export function main(argv: readonly string[], cwd = process.cwd()): number {
  let args: Arguments | 'help';
  try {
    args = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`create-toolwright: ${error.message}\n\n${HELP}`);
    return 2;
  }
  if (args === 'help') {
    console.log(HELP);
    return 0;
  }
  const { version } = require('../package.json') as { version: string };
  try {
    const files = scaffold({ dir: args.dir, cwd, template: args.template, toolwrightVersion: version });
    console.log(`create-toolwright: wrote ${args.dir} from the ${args.template} template (${files.length} files). Next:\n`);
    for (const command of [`cd ${shellWord(args.dir)}`, ...TEMPLATES[args.template].next]) console.log(`  ${command}`);
    console.log('\nWithout ANTHROPIC_API_KEY, npm start talks to a scripted model on this machine; with it, to Claude.');
    return 0;
  } catch (error) {
    if (error instanceof TargetError) {
      console.error(`create-toolwright: ${error.message}`);
      return 1;
    }
    // The file system's refusal (no permission, a read-only disk, a full one): its own words, one line.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    console.error(`create-toolwright: could not write ${args.dir}: ${(error as Error).message}. Pick a folder you can write to, or fix its permissions, and run again.`);
    return 1;
  }
}

/** `text` as one word of a POSIX shell: as it is when it is plain, in single quotes otherwise. */
function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
