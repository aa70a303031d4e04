import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { Generator } from '../src/generate';
import { relativeModule } from '../src/emit/import-table';
import type { ImportExtension } from '../src/project/import-extension';

const REPO = path.resolve(__dirname, '..', '..', '..');
const CORE = path.join(REPO, 'packages', 'core');

const TOOLS = `import { Input, Param, Tool } from '@toolwright/core';
import { NoteInput } from './dto/note.input${'${EXT}'}';

export class ClockTools {
  /**
   * Tells the time in a time zone.
   * Use it when the user asks what time it is somewhere.
   * It does not set alarms.
   * @param zone IANA time zone, like Europe/Lisbon.
   */
  @Tool({ effect: 'read' })
  now(@Param() zone: string): string {
    return zone;
  }

  /**
   * Writes a note. Use it when the user asks to remember something. It does not send anything.
   */
  @Tool()
  note(@Input() input: NoteInput): string {
    return input.text;
  }
}
`;

const DTO = `import { IsString } from 'class-validator';

export class NoteInput {
  /** The text to keep. */
  @IsString()
  text!: string;
}
`;

interface Layout {
  name: string;
  compilerOptions: Record<string, unknown>;
  /** `type` of the project's package.json; none when absent. */
  type?: 'module' | 'commonjs';
  expected: ImportExtension;
}

// The generator reads the project with the small stand-in core of `writeFakeCore` (it only needs
// to know where the decorators come from); the type check then maps `@toolwright/core` and
// class-validator to the real ones, so the generated module is checked against what it imports.
const REAL_PACKAGES = {
  '@toolwright/core': [path.join(CORE, 'src', 'index.ts')],
  '@toolwright/core/*': [path.join(CORE, 'src', '*', 'index.ts')],
  'class-validator': [path.join(CORE, 'node_modules', 'class-validator', 'types', 'index.d.ts')],
};

const LAYOUTS: Layout[] = [
  { name: 'node10 (classic CommonJS)', compilerOptions: { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0' }, expected: 'none' },
  { name: 'node16, CommonJS package', compilerOptions: { module: 'node16', moduleResolution: 'node16' }, expected: 'none' },
  { name: 'node16, ESM package', compilerOptions: { module: 'node16', moduleResolution: 'node16' }, type: 'module', expected: 'js' },
  { name: 'nodenext, CommonJS package', compilerOptions: { module: 'nodenext' }, type: 'commonjs', expected: 'none' },
  { name: 'nodenext, ESM package (the layout `nest new` creates)', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' }, type: 'module', expected: 'js' },
  { name: 'bundler', compilerOptions: { module: 'esnext', moduleResolution: 'bundler' }, type: 'module', expected: 'none' },
  { name: 'nodenext ESM with allowImportingTsExtensions', compilerOptions: { module: 'nodenext', allowImportingTsExtensions: true, noEmit: true }, type: 'module', expected: 'ts' },
  { name: 'nodenext ESM with rewriteRelativeImportExtensions', compilerOptions: { module: 'nodenext', rewriteRelativeImportExtensions: true }, type: 'module', expected: 'ts' },
];

const created: string[] = [];
afterAll(() => {
  for (const dir of created) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project with a tools file and a DTO file whose own imports follow the layout's rule. */
function makeProject(layout: Layout): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-codegen-ext-'));
  created.push(dir);
  const ownExtension = { js: '.js', ts: '.ts', none: '' }[layout.expected];
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('package.json', JSON.stringify({ name: 'consumer', private: true, ...(layout.type ? { type: layout.type } : {}) }));
  write('tsconfig.json', JSON.stringify({
    compilerOptions: {
      target: 'es2022',
      lib: ['es2022'],
      strict: true,
      experimentalDecorators: true,
      skipLibCheck: true,
      types: [],
      ...layout.compilerOptions,
    },
    include: ['src'],
  }));
  writeFakeCore(write);
  write('src/clock.tools.ts', TOOLS.replace('${EXT}', ownExtension));
  write('src/dto/note.input.ts', DTO);
  return dir;
}

/** Type-checks the project's own files (tsc --noEmit, through the compiler API). */
function typeErrors(dir: string): string[] {
  // The real core's sources come from outside the project's directory.
  const checkOptions = { noEmit: true, paths: REAL_PACKAGES, rootDir: path.parse(dir).root };
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(dir, 'tsconfig.json'), checkOptions, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  })!;
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host: cachingHost(parsed.options) });
  const own = program.getSourceFiles().filter((f) => f.fileName.startsWith(dir));
  const diagnostics = [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...own.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
  ];
  return diagnostics.map((d) => {
    const where = d.file && d.start !== undefined ? `${path.relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return `${where}TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

/**
 * Every check reads the same declarations (core, class-validator, the SDK); they are parsed once
 * for the whole file. A parsed file depends only on its name, language version and module format.
 */
const parsedFiles = new Map<string, ts.SourceFile | undefined>();
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const version = typeof languageVersion === 'object' ? `${languageVersion.languageVersion}:${languageVersion.impliedNodeFormat}` : String(languageVersion);
    if (!fileName.startsWith(REPO)) return read(fileName, languageVersion, ...rest);
    const key = `${fileName}|${version}`;
    if (!parsedFiles.has(key)) parsedFiles.set(key, read(fileName, languageVersion, ...rest));
    return parsedFiles.get(key);
  };
  return host;
}

/** A stand-in `@toolwright/core` in node_modules: its decorators, so the scanner finds the tools. */
function writeFakeCore(write: (file: string, text: string) => void): void {
  write('node_modules/@toolwright/core/package.json', JSON.stringify({ name: '@toolwright/core', types: 'index.d.ts' }));
  write('node_modules/@toolwright/core/index.d.ts', [
    'export declare function Tool(options?: { effect?: "read" | "write" }): MethodDecorator;',
    'export declare function Param(): ParameterDecorator;',
    'export declare function Input(): ParameterDecorator;',
    'export declare function defineToolManifest<T>(entries: T): T;',
  ].join('\n'));
  write('node_modules/class-validator/package.json', JSON.stringify({ name: 'class-validator', types: 'index.d.ts' }));
  write('node_modules/class-validator/index.d.ts', 'export declare function IsString(): PropertyDecorator;\n');
}

function generateIn(dir: string, importExtension?: ImportExtension) {
  const result = new Generator({ project: path.join(dir, 'tsconfig.json'), importExtension }).run();
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { result, code: fs.readFileSync(path.join(dir, 'src', 'tools.generated.ts'), 'utf8') };
}

describe.each(LAYOUTS)('generated imports under $name', (layout) => {
  const dir = makeProject(layout);

  it(`use the extension the settings need (${layout.expected}) and the module type-checks`, () => {
    const { result, code } = generateIn(dir);
    expect(result.importExtension).toBe(layout.expected);
    const suffix = { js: '.js', ts: '.ts', none: '' }[layout.expected];
    expect(code).toContain(`import { ClockTools } from './clock.tools${suffix}';`);
    expect(code).toContain(`import { NoteInput } from './dto/note.input${suffix}';`);
    expect(typeErrors(dir)).toEqual([]);
  });
});

describe('the extension rule is what makes it compile', () => {
  it('under nodenext ESM, extensionless imports do not type-check, so the check can fail', () => {
    const dir = makeProject(LAYOUTS.find((l) => l.name.startsWith('nodenext, ESM'))!);
    generateIn(dir, 'none');
    expect(typeErrors(dir)).toEqual([
      expect.stringMatching(/^src\/tools\.generated\.ts:\d+ TS2307: Cannot find module '\.\/clock\.tools'/),
      expect.stringMatching(/^src\/tools\.generated\.ts:\d+ TS2307: Cannot find module '\.\/dto\/note\.input'/),
      expect.stringMatching(/^src\/tools\.generated\.ts:\d+ TS2307: Cannot find module '\.\/tools\.generated\.checks'/),
    ]);
  });

  it('importExtension overrides what the tsconfig says', () => {
    const dir = makeProject(LAYOUTS[0]);
    const { result, code } = generateIn(dir, 'js');
    expect(result.importExtension).toBe('js');
    expect(code).toContain("from './clock.tools.js';");
  });

  it('a .mts output is ESM under nodenext whatever the package type', () => {
    const dir = makeProject(LAYOUTS.find((l) => l.name === 'nodenext, CommonJS package')!);
    const result = new Generator({ project: path.join(dir, 'tsconfig.json'), out: path.join(dir, 'src', 'tools.generated.mts'), write: false }).run();
    expect(result.importExtension).toBe('js');
    expect(result.code).toContain("from './clock.tools.js';");
  });
});

describe('relativeModule', () => {
  const out = '/app/src/tools.generated.ts';
  it.each([
    ['/app/src/orders.tools.ts', 'none', './orders.tools'],
    ['/app/src/orders.tools.ts', 'js', './orders.tools.js'],
    ['/app/src/orders.tools.ts', 'ts', './orders.tools.ts'],
    ['/app/src/views/list.tsx', 'js', './views/list.js'],
    ['/app/lib/shared.mts', 'none', '../lib/shared.mjs'],
    ['/app/lib/shared.cts', 'ts', '../lib/shared.cts'],
    ['/app/types/dto.d.ts', 'ts', '../types/dto.js'],
    ['/app/types/dto.d.ts', 'none', '../types/dto'],
  ] as const)('%s with %s → %s', (target, extension, expected) => {
    expect(relativeModule(out, target, extension)).toBe(expected);
  });
});
