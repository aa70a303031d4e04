import * as path from 'node:path';

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

/** How the generated file at `outFile` imports the source file `target` (CommonJS, no extension). */
export function relativeModule(outFile: string, target: string): string {
  const relative = path.relative(path.dirname(outFile), target).split(path.sep).join('/').replace(/\.(d\.)?[cm]?tsx?$/, '');
  return relative.startsWith('.') ? relative : `./${relative}`;
}
