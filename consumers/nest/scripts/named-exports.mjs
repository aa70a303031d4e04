// Every entry point's exports, as CommonJS defines them, must be importable by name from ESM:
// Node finds them by reading the compiled code (cjs-module-lexer), so check what it found.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const entries = ['@toolwright/core', '@toolwright/core/testing', '@toolwright/codegen', '@toolwright/nest'];
const missing = [];
for (const entry of entries) {
  const cjs = Object.keys(require(entry)).filter((name) => name !== '__esModule');
  const esm = new Set(Object.keys(await import(entry)));
  for (const name of cjs) if (!esm.has(name)) missing.push(`${entry}: ${name}`);
  if (cjs.length === 0) missing.push(`${entry}: no exports at all`);
}
if (missing.length > 0) {
  console.error(`not importable by name from ESM:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
console.log(`named exports: all ${entries.length} entry points importable by name from ESM`);
