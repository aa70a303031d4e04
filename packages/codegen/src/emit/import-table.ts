import * as path from 'node:path';
import type { ImportExtension } from '../project/import-extension';

/**
 * The imports of the generated module: each local name unique (two user classes called `Input`
 * in different files get `Input` and `Input_2`), everything sorted so the output is stable.
 */
export class ImportTable {
  private readonly byModule = new Map<string, Map<string, string>>();
  private readonly usedLocals = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.usedLocals.add(name);
  }

  /** Imports `name` from `module` and returns the local name to use for it. */
  use(module: string, name: string): string {
    const names = this.byModule.get(module) ?? new Map<string, string>();
    this.byModule.set(module, names);
    const existing = names.get(name);
    if (existing) return existing;
    let local = name;
    for (let n = 2; this.usedLocals.has(local); n++) local = `${name}_${n}`;
    this.usedLocals.add(local);
    names.set(name, local);
    return local;
  }

  /** Reserves a name for a class the module declares itself. */
  reserve(name: string): string {
    let local = name;
    for (let n = 2; this.usedLocals.has(local); n++) local = `${name}_${n}`;
    this.usedLocals.add(local);
    return local;
  }

  render(): string {
    const modules = [...this.byModule.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    return modules
      .map((module) => {
        const names = [...this.byModule.get(module)!.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, local]) => (name === local ? name : `${name} as ${local}`));
        return `import { ${names.join(', ')} } from '${module}';`;
      })
      .join('\n');
  }
}

/** Packages first, then the user's files. */
function rank(module: string): number {
  return module.startsWith('.') ? 1 : 0;
}

/** The emitted JavaScript extension of each TypeScript one. */
const EMITTED: Record<string, string> = { '.ts': '.js', '.tsx': '.js', '.mts': '.mjs', '.cts': '.cjs' };

/**
 * How the generated file at `outFile` imports the source file `target`, with the extension the
 * project's module settings need (see `importExtensionFor`). A declaration file is imported by the
 * name of the JavaScript it describes; `.mts`/`.cts` files always keep one, since no resolver
 * adds it.
 */
export function relativeModule(outFile: string, target: string, extension: ImportExtension): string {
  const [, base, declaration, sourceExtension] = /^(.*?)(\.d)?(\.[cm]?tsx?)$/.exec(target) ?? [undefined, target, undefined, ''];
  const emitted = EMITTED[sourceExtension] ?? '';
  let suffix = '';
  if (extension === 'ts') suffix = declaration ? emitted : sourceExtension;
  else if (extension === 'js' || emitted === '.mjs' || emitted === '.cjs') suffix = emitted;
  const relative = path.relative(path.dirname(outFile), base + suffix).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}
