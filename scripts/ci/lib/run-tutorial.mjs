// Runs a markdown tutorial as written, in an empty folder: every ```sh block in order (each with
// bash -euo pipefail), and every block whose first line is `// file: <path>` written to that
// path first. ```sh fragment and ```ts fragment blocks are not run. `@toolwright/<name>@<version>`
// in a shell line is installed from the packed tarball of that package. Stops at the first step
// that fails; prints one line per step, then "tutorial: N passed, M failed".
//
//   node scripts/ci/lib/run-tutorial.mjs <markdown> <empty dir> <tarballs dir>
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative } from 'node:path';

const [markdown, dir, tarballsDir] = process.argv.slice(2);
if (!markdown || !dir || !tarballsDir) {
  console.error('usage: node run-tutorial.mjs <markdown> <empty dir> <tarballs dir>');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
if (readdirSync(dir).length > 0) {
  console.error(`run-tutorial: ${dir} is not empty`);
  process.exit(2);
}

/** The steps of the document, in order: files to write and shell blocks to run. */
function readSteps(text) {
  const lines = text.split('\n');
  const steps = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*(.*)$/.exec(lines[i]);
    if (!fence) continue;
    const [, language, attributes] = fence;
    const start = i + 1;
    const body = [];
    for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
    if (attributes.trim() === 'fragment') continue;
    const file = /^\/\/ file: (\S+)\s*$/.exec(body[0] ?? '')?.[1];
    if (file) {
      const path = normalize(file);
      if (isAbsolute(path) || path.startsWith('..')) throw new Error(`${markdown}:${start}: "${file}" must be inside the project`);
      steps.push({ kind: 'file', line: start, path, text: `${body.join('\n')}\n` });
    } else if (language === 'sh' || language === 'bash') {
      steps.push({ kind: 'sh', line: start, script: body.join('\n') });
    }
  }
  return steps;
}

const tarballs = readdirSync(tarballsDir);
/** `@toolwright/core@0.1.0` -> the path of toolwright-core-0.1.0.tgz. */
function useTarballs(script) {
  return script.replace(/@toolwright\/([a-z-]+)@(\S+)/g, (spec, name, version) => {
    const tarball = `toolwright-${name}-${version}.tgz`;
    if (!tarballs.includes(tarball)) throw new Error(`no ${tarball} in ${tarballsDir} for ${spec}`);
    return join(tarballsDir, tarball);
  });
}

const steps = readSteps(readFileSync(markdown, 'utf8'));
const where = relative(process.cwd(), markdown) || markdown;
let passed = 0;
let failed = 0;
for (const step of steps) {
  const started = Date.now();
  if (step.kind === 'file') {
    mkdirSync(dirname(join(dir, step.path)), { recursive: true });
    writeFileSync(join(dir, step.path), step.text);
    console.log(`step ${where}:${step.line}: wrote ${step.path}`);
    passed++;
    continue;
  }
  const env = { ...process.env };
  // The tutorial's `npm start` runs without a key, as a newcomer's first run does.
  delete env.ANTHROPIC_API_KEY;
  delete env.ANTHROPIC_BASE_URL;
  let script;
  try {
    script = useTarballs(step.script);
  } catch (error) {
    console.log(`step ${where}:${step.line}: FAILED (${error.message})`);
    failed++;
    break;
  }
  console.log(`step ${where}:${step.line}: $ ${step.script.split('\n').join(' ; ')}`);
  const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trimEnd();
  if (output) console.log(output.replace(/^/gm, '  | '));
  const seconds = Math.round((Date.now() - started) / 1000);
  if (result.status === 0) {
    console.log(`step ${where}:${step.line}: ok (${seconds}s)`);
    passed++;
  } else {
    console.log(`step ${where}:${step.line}: FAILED (exit ${result.status ?? result.signal}, ${seconds}s)`);
    failed++;
    break;
  }
}
if (steps.length === 0) failed++;
console.log(`tutorial: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
