import * as fs from 'node:fs';
import * as path from 'node:path';
import { ts } from 'ts-morph';

/** The extension the generated module writes on its imports of the project's files. */
export type ImportExtension = 'js' | 'ts' | 'none';

export const IMPORT_EXTENSIONS: readonly ImportExtension[] = ['js', 'ts', 'none'];

const NODE16_MODULES = new Set([ts.ModuleKind.Node16, ts.ModuleKind.Node18, ts.ModuleKind.Node20, ts.ModuleKind.NodeNext]);

/**
 * What the project's own imports must look like, so that the generated module compiles and runs
 * as part of it:
 * - `ts` when the project writes `.ts` specifiers (`allowImportingTsExtensions`, for a runtime or
 *   bundler that loads TypeScript, or `rewriteRelativeImportExtensions`, which turns them into
 *   `.js` on emit);
 * - `js` when Node's ESM resolver reads the emitted file (`node16`/`nodenext` resolution and the
 *   module file is ESM: `.mts`, or a `.ts` under a package.json with `"type": "module"`);
 * - none otherwise (`bundler`, `node10`, and CommonJS under `node16`/`nodenext`).
 */
export function importExtensionFor(options: ts.CompilerOptions, moduleFile: string): ImportExtension {
  if (options.allowImportingTsExtensions || options.rewriteRelativeImportExtensions) return 'ts';
  return usesNodeEsmResolution(options, moduleFile) ? 'js' : 'none';
}

function usesNodeEsmResolution(options: ts.CompilerOptions, moduleFile: string): boolean {
  const resolution = options.moduleResolution;
  const node16 =
    resolution === undefined
      ? options.module !== undefined && NODE16_MODULES.has(options.module)
      : resolution === ts.ModuleResolutionKind.Node16 || resolution === ts.ModuleResolutionKind.NodeNext;
  if (!node16) return false;
  if (/\.mts$/.test(moduleFile)) return true;
  if (/\.cts$/.test(moduleFile)) return false;
  return nearestPackageType(path.dirname(moduleFile)) === 'module';
}

/** The `type` of the package.json nearest to `dir`, as Node reads it to choose ESM or CommonJS. */
function nearestPackageType(dir: string): unknown {
  for (let current = dir; ; current = path.dirname(current)) {
    const manifest = path.join(current, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { type?: unknown }).type;
      } catch {
        return undefined;
      }
    }
    if (path.dirname(current) === current) return undefined;
  }
}
