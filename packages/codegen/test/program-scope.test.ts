import { Generator } from '../src/generate';
import { makeTempProject } from './support/fixtures';

/**
 * A project whose files take only decorators from `@toolwright/core` is read without the core's
 * own dependencies; anything that could make them matter loads them, and the answer never
 * depends on which program was read.
 */

/** The core as installed: its declarations import another package, which brings `@types/node` with it (as the Anthropic SDK does). */
const CORE = `import type { Message } from 'fake-sdk';
export declare function Tool(options?: { name?: string; effect?: 'read' | 'write' }): MethodDecorator;
export declare function Param(options?: { name?: string; description?: string }): ParameterDecorator;
export declare function ToolGroup(options?: { prefix?: string }): ClassDecorator;
export declare class ToolContainer {
  send(message: Message): void;
}
`;

const dependencies = {
  'node_modules/@toolwright/core/index.d.ts': CORE,
  'node_modules/fake-sdk/package.json': JSON.stringify({ name: 'fake-sdk', types: 'index.d.ts' }),
  'node_modules/fake-sdk/index.d.ts': '/// <reference types="node" />\nexport interface Message {\n  text: string;\n}\n',
  'node_modules/@types/node/package.json': JSON.stringify({ name: '@types/node', types: 'index.d.ts' }),
  'node_modules/@types/node/index.d.ts': 'declare class Buffer {\n  toString(): string;\n}\n',
};

const toolsFile = (parameter: string) => `import { Param, Tool } from '@toolwright/core';

/** Finding products. */
export class CatalogTools {
  /**
   * Finds products by code. Use it when the customer gives a code. It reads only.
   * @param code The product code.
   */
  @Tool({ effect: 'read' })
  find(@Param() code: ${parameter}): string {
    return String(code);
  }
}
`;

/** A bootstrap file, as an application has: it takes the container from the core. */
const MAIN = `import { ToolContainer } from '@toolwright/core';\n\nexport const container: ToolContainer | undefined = undefined;\n`;

function run(files: Record<string, string>) {
  const project = makeTempProject({ ...dependencies, ...files });
  try {
    const generator = new Generator({ project: project.tsconfig, write: false }, false);
    const result = generator.run();
    const loaded = generator.project.getProgram().compilerObject.getSourceFiles().map((f) => f.fileName.slice(project.dir.length + 1));
    return { result, loaded };
  } finally {
    project.cleanup();
  }
}

const sdkLoaded = (loaded: string[]) => loaded.includes('node_modules/fake-sdk/index.d.ts');

describe('the program tools-codegen reads', () => {
  it("leaves out the core's own dependencies when the project takes only decorators from it", () => {
    const { result, loaded } = run({ 'src/catalog.tools.ts': toolsFile('string') });
    expect(result.tools.map((t) => t.name)).toEqual(['find']);
    expect(result.diagnostics).toEqual([]);
    expect(sdkLoaded(loaded)).toBe(false);
    expect(loaded).toContain('node_modules/@toolwright/core/index.d.ts');
  });

  it('loads them when a project file takes more from the core, with the same module and diagnostics', () => {
    const narrow = run({ 'src/catalog.tools.ts': toolsFile('string') });
    const full = run({ 'src/catalog.tools.ts': toolsFile('string'), 'src/main.ts': MAIN });
    expect(sdkLoaded(full.loaded)).toBe(true);
    expect(full.result.code).toBe(narrow.result.code);
    expect(full.result.checksCode).toBe(narrow.result.checksCode);
    expect(full.result.diagnostics).toEqual(narrow.result.diagnostics);
  });

  it('loads them when a type of a tool is declared only there (Buffer from @types/node, reached through the SDK)', () => {
    const { result, loaded } = run({ 'src/catalog.tools.ts': toolsFile('Buffer') });
    expect(sdkLoaded(loaded)).toBe(true);
    expect(result.diagnostics.map((d) => d.message)).toContainEqual(expect.stringContaining('type Buffer cannot be sent as JSON; take the bytes as a base64 string'));
  });

  it('loads them when a package other than the core imports the core', () => {
    const { loaded } = run({
      'src/catalog.tools.ts': toolsFile('Shared').replace("import { Param, Tool } from '@toolwright/core';", "import { Param, Tool } from '@toolwright/core';\nimport type { Shared } from 'shared-dtos';"),
      'node_modules/shared-dtos/package.json': JSON.stringify({ name: 'shared-dtos', types: 'index.d.ts' }),
      'node_modules/shared-dtos/index.d.ts': "import type { ToolContainer } from '@toolwright/core';\n/** A code. */\nexport type Shared = string;\nexport type Holder = ToolContainer;\n",
    });
    expect(sdkLoaded(loaded)).toBe(true);
  });
});
