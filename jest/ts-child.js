// `fork(file.ts, { execArgv: ['-r', require.resolve('<root>/jest/ts-child.js')] })`: lets a test start
// child processes that run TypeScript sources the way the tests do (no build needed), with the
// same package names mapped to `src/` as jest.config.js maps them. Each file is transpiled on its
// own (types were checked by the test that forks it); decorators and their metadata are kept.
// Not ts-node or tsx: ts-node's last release (10.9.2) predates TypeScript 6, and tsx (esbuild) cannot emit
// decorator metadata, which the tool classes rely on.
'use strict';
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const ts = require('typescript');
const { moduleNameMapper } = require('../jest.config.js');

const rootDir = path.dirname(__dirname);
const aliases = new Map(
  Object.entries(moduleNameMapper).map(([pattern, target]) => [pattern.replace(/^\^|\$$/g, ''), target.replace('<rootDir>', rootDir)]),
);

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const alias = aliases.get(request);
  if (alias) return alias;
  try {
    return resolve.call(this, request, parent, ...rest);
  } catch (error) {
    // Sources import each other without an extension: `./engine` is `./engine.ts` or `./engine/index.ts`.
    if (!request.startsWith('.') || !parent?.filename) throw error;
    for (const candidate of [`${request}.ts`, `${request}/index.ts`]) {
      try {
        return resolve.call(this, candidate, parent, ...rest);
      } catch {}
    }
    throw error;
  }
};

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  useDefineForClassFields: false,
  sourceMap: false,
};

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
