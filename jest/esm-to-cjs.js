// Jest (on Node < 24.9) cannot require ES modules, and NestJS 12 ships nothing else. This turns
// those files into CommonJS for the test run only; built code loads them natively (Node >= 20.19).
const ts = require('typescript');

module.exports = {
  process(source, filename) {
    // import.meta does not exist in CommonJS; Nest only reads its url (for createRequire).
    const commonJs = source.replace(/\bimport\.meta\.url\b/g, "require('node:url').pathToFileURL(__filename).href");
    const { outputText, sourceMapText } = ts.transpileModule(commonJs, {
      fileName: filename,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        allowJs: true,
        sourceMap: true,
        esModuleInterop: true,
      },
    });
    return { code: outputText, map: sourceMapText };
  },
};
