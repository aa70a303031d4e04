// PGlite's CommonJS build loads Node built-ins with `import("fs")`, which Jest's module sandbox
// refuses without --experimental-vm-modules, and its Emscripten code makes a `require` of its own
// with `createRequire`, which Jest's sandbox does not provide either. For the test run only, both
// become Jest's own require of the same built-ins; Node itself runs the package unchanged.
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');

const self = readFileSync(__filename, 'utf8');

module.exports = {
  process(source) {
    const code = source
      .replace(/(?<![.\w$])import\((["'][\w:/]+["'])\)/g, 'Promise.resolve(__jestRequire($1))')
      .replace(/var require=\w+\(\w+\)/g, 'var require=__jestRequire');
    return { code: `const __jestRequire = require;${code}` };
  },
  getCacheKey(source, filename) {
    return createHash('sha256').update(self).update(filename).update(source).digest('hex');
  },
};
