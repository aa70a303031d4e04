import * as fs from 'node:fs';
import * as path from 'node:path';
import { Generator, type GenerateResult } from '../src/generate';
import { formatDiagnostic } from '../src/lint/format-diagnostics';
import { makeTempProject } from './support/fixtures';

const tools = (imports: string, extra = '') => `import { Input, Param, Tool } from '@toolwright/core';
${imports}

export class OrdersTools {
  /**
   * Looks up an order by its number. Use it when the customer asks where an order is.
   * It changes nothing.
   * @param id Order number.
   */
  @Tool({ effect: 'read' })
  getStatus(@Param() id: string): string {
    return id;
  }
}
${extra}`;

const MODULE = `import { toolManifest } from './tools.generated';
import { OrdersTools } from './orders.tools';

export const AppModule = { manifest: toolManifest, providers: [OrdersTools] };
`;

const cleanups: Array<() => void> = [];
afterAll(() => cleanups.forEach((cleanup) => cleanup()));

function generateProject(files: Record<string, string>): { result: GenerateResult; dir: string; lines: string[] } {
  const project = makeTempProject(files);
  cleanups.push(project.cleanup);
  const result = new Generator({ project: project.tsconfig }).run();
  return { result, dir: project.dir, lines: result.diagnostics.map((d) => formatDiagnostic(d, project.dir)) };
}

describe('an import cycle between the generated manifest and a tools file is an error', () => {
  describe('the tools class in the file that imports the manifest (the old README snippet)', () => {
    const { result, dir, lines } = generateProject({
      'src/orders.tools.ts': tools(
        "import { toolManifest } from './tools.generated';",
        'export const AppModule = { manifest: toolManifest, providers: [OrdersTools] };\n',
      ),
    });

    it('points at the import, names the chain and says how to split the files', () => {
      expect(lines).toEqual([
        'src/orders.tools.ts:2:1 error OrdersTools: import cycle with the generated manifest: src/orders.tools.ts → src/tools.generated.ts. ' +
          `OrdersTools would be read before its class is defined ("Cannot access 'OrdersTools' before initialization" at start-up); ` +
          'keep OrdersTools in a file that does not import src/tools.generated.ts, and import the manifest from another file ' +
          '(the module or bootstrap that builds the container).',
      ]);
    });

    it('writes nothing, even on the first run when the generated module does not exist yet', () => {
      expect(result.written).toBe(false);
      expect(fs.existsSync(path.join(dir, 'src', 'tools.generated.ts'))).toBe(false);
    });
  });

  it('through another module, with the whole chain', () => {
    const { lines } = generateProject({
      'src/orders.tools.ts': tools("import { AppModule } from './app.module';", 'export const registered = AppModule;\n'),
      'src/app.module.ts': MODULE,
    });
    expect(lines).toEqual([
      expect.stringMatching(/^src\/orders\.tools\.ts:2:1 error OrdersTools: import cycle with the generated manifest: src\/orders\.tools\.ts → src\/app\.module\.ts → src\/tools\.generated\.ts\. /),
    ]);
  });

  it('from a DTO file the manifest imports, and with ESM .js specifiers', () => {
    const { lines } = generateProject({
      'src/notes.tools.ts': `import { Input, Tool } from '@toolwright/core';
import { NoteInput } from './note.input.js';

export class NotesTools {
  /** Writes a note. Use it when the user asks to remember something. It sends nothing. */
  @Tool()
  write(@Input() input: NoteInput): string {
    return input.text;
  }
}
`,
      'src/note.input.ts': `import { toolManifest } from './tools.generated.js';

export class NoteInput {
  /** The text. */
  text!: string;
}
export const tools = toolManifest;
`,
    });
    expect(lines.filter((l) => l.includes('import cycle'))).toEqual([
      expect.stringMatching(/^src\/note\.input\.ts:1:1 error NoteInput: import cycle with the generated manifest: src\/note\.input\.ts → src\/tools\.generated\.ts\. .*keep NoteInput in a file/),
    ]);
  });
});

describe('imports that are not a cycle', () => {
  it('the module in its own file, importing both the manifest and the tools class', () => {
    const { result, lines } = generateProject({ 'src/orders.tools.ts': tools(''), 'src/app.module.ts': MODULE });
    expect(lines).toEqual([]);
    expect(result.written).toBe(true);
  });

  it('type-only imports of the generated module (erased from the emitted JavaScript)', () => {
    const { lines } = generateProject({
      'src/orders.tools.ts': tools(
        "import type { toolManifest } from './tools.generated';\nimport { type toolManifest as Again } from './tools.generated';",
        'export type Manifest = typeof toolManifest | typeof Again;\n',
      ),
    });
    expect(lines).toEqual([]);
  });

  it('a dynamic import(), which runs after both modules are loaded', () => {
    const { lines } = generateProject({
      'src/orders.tools.ts': tools('', "export const later = () => import('./tools.generated');\n"),
    });
    expect(lines).toEqual([]);
  });
});
