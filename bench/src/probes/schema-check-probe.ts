// One cold start of the schema check, as a tool's first call pays it. Prints the phases as JSON.
// Usage: node schema-check-probe.js lazy <schema.json>       Ajv loaded and the schema compiled on first use
//        node schema-check-probe.js standalone <validator.js> a validator compiled at build time, required
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [mode, file] = process.argv.slice(2);
const input = { numero: 'A-1001' };
let started = performance.now();
let firstCallMs: number;
let secondToolMs = 0;
if (mode === 'lazy') {
  const schema = JSON.parse(readFileSync(file, 'utf8')) as object;
  const { schemaCheck } = require('../../../packages/core/dist/validation/schema-check') as typeof import('../../../packages/core/dist/validation/schema-check');
  if (!schemaCheck(schema)(input)) throw new Error('the probe input must be valid');
  firstCallMs = performance.now() - started;
  // A second tool: Ajv is loaded, only its schema is compiled.
  started = performance.now();
  schemaCheck(JSON.parse(JSON.stringify(schema)))(input);
  secondToolMs = performance.now() - started;
} else {
  const validate = require(file) as (value: unknown) => boolean;
  if (!validate(input)) throw new Error('the probe input must be valid');
  firstCallMs = performance.now() - started;
}
process.stdout.write(`${JSON.stringify({ firstCallMs, secondToolMs })}\n`);
