// ts-json-schema-generator producing the schemas of the same options types in one generator
// run (its best case: one program, one call). Usage: node ts-json-schema-generator.js <tsconfig> <types.json>
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';
import { reportMaxRss } from '../lib/child';

const [tsconfig, typesFile] = process.argv.slice(2);
const types: string[] = JSON.parse(readFileSync(typesFile, 'utf8'));
const generator = createGenerator({
  tsconfig,
  path: join(dirname(tsconfig), 'src', 'tools', '*.ts'),
  type: types,
  expose: 'export',
  jsDoc: 'extended',
  // Like tools-codegen, which reads types and reports its own errors rather than type-checking.
  skipTypeCheck: true,
});
const schema = generator.createSchema(types);
const produced = types.filter((name) => schema.definitions?.[name]).length;
if (produced !== types.length) throw new Error(`schemas for ${produced} of ${types.length} types`);
process.stdout.write(`schemas=${produced}\n`);
reportMaxRss();
