// Writes the TypeScript blocks of the README and of every guide under docs/ into this project so
// tsc checks them against the packed packages. A block fenced ```ts is a complete module; ```ts fragment is skipped. A first line
// `// file: <path>` places the block at that path (so multi-file examples compile together);
// other blocks go to src/readme/<document>-line-<n>.ts. Paths under nest/ belong to the Nest project.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repository = process.argv[2] ?? join(here, '../..');
const docs = join(repository, 'docs');
const documents = [
  join(repository, 'README.md'),
  ...(existsSync(docs) ? readdirSync(docs).filter((f) => f.endsWith('.md')).sort().map((f) => join(docs, f)) : []),
];
const roots = ['src', 'nest/src'];

const blocks = [];
let fragments = 0;
let document = '';
for (const path of documents) {
  document = path.startsWith(docs) ? `docs/${basename(path)}` : 'README.md';
  extract(readFileSync(path, 'utf8').split('\n'), basename(path, '.md'));
}

function extract(lines, name) {
for (let i = 0; i < lines.length; i++) {
  const fence = /^```(ts|typescript)\b(.*)$/.exec(lines[i]);
  if (!fence) continue;
  const attributes = fence[2].trim();
  if (attributes !== '' && attributes !== 'fragment') {
    fail(i, `unknown fence attribute "${attributes}": use \`\`\`ts for a complete module or \`\`\`ts fragment`);
  }
  const start = i;
  const body = [];
  for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
  if (i === lines.length) fail(start, 'the block is never closed');
  if (attributes === 'fragment') {
    fragments++;
    continue;
  }
  const placed = /^\/\/ file: (\S+)\s*$/.exec(body[0] ?? '');
  const file = placed ? normalize(placed[1]) : `src/readme/${name}-line-${start + 1}.ts`;
  if (!roots.some((root) => file.startsWith(`${root}/`)) || !file.endsWith('.ts')) {
    fail(start, `"// file: ${placed?.[1]}" must name a .ts file under ${roots.join('/ or ')}/`);
  }
  const other = blocks.find((b) => b.file === file);
  if (other) fail(start, `${file} is already written by ${other.source}`);
  blocks.push({ file, source: `${document}:${start + 1}`, text: `${body.join('\n')}\n` });
}
}

for (const root of roots) rmSync(join(here, root), { recursive: true, force: true });
for (const block of blocks) {
  mkdirSync(dirname(join(here, block.file)), { recursive: true });
  writeFileSync(join(here, block.file), block.text);
  console.log(`${block.file} <- ${block.source}`);
}
console.log(`readme: ${blocks.length} blocks to check, ${fragments} fragments skipped`);

function fail(index, message) {
  console.error(`${document}:${index + 1}: ${message}`);
  process.exit(1);
}
