import * as fs from 'node:fs';
import * as path from 'node:path';

const cache = new Map<string, string | undefined>();

/**
 * The `name` of the nearest package.json above a file. This is how a declaration is traced to
 * `@toolwright/core` or `class-validator` whether it was reached through `src/`, `dist/*.d.ts`
 * or `node_modules`, and whatever the import was called.
 */
export function packageNameOf(filePath: string): string | undefined {
  return lookup(path.dirname(filePath));
}

function lookup(dir: string): string | undefined {
  if (cache.has(dir)) return cache.get(dir);
  let name: string | undefined;
  const manifest = path.join(dir, 'package.json');
  if (fs.existsSync(manifest)) {
    name = readName(manifest);
  } else {
    const parent = path.dirname(dir);
    name = parent === dir ? undefined : lookup(parent);
  }
  cache.set(dir, name);
  return name;
}

function readName(manifest: string): string | undefined {
  try {
    const name = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}
