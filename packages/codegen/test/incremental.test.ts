import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { Generator, type GenerateResult } from '../src/generate';
import { makeTempProject } from './support/fixtures';

/**
 * Watch mode keeps each tool's result and builds again only the tools a change can reach; what
 * it produces after any sequence of edits must be exactly what a fresh run of the same files
 * produces. The project has what makes reuse hard: types shared across files and tools, an
 * import chain, a global script declaration, tools that move, vanish and collide by name.
 */

/** `shared.ts`: a type two tools files use, one of them through `wrapper.ts`. */
const shared = (variant: number) => [
  `/** Filters shared by every catalog. */\nexport interface Shared {\n  /** The product code. */\n  code: string;\n}\n`,
  `/** Filters shared by every catalog. */\nexport interface Shared {\n  /** The product code. */\n  code: string;\n  /** At most this many. */\n  limit?: number;\n}\n`,
  // No description on a property: a warning every tool using it reaches.
  `export interface Shared {\n  code: 'a' | 'b';\n  tags: string[];\n}\n`,
  `export type Shared = { /** Any text. */ text: string } | { /** A number. */ value: number };\n`,
][variant];

const wrapper = (variant: number) => [
  `import type { Shared } from './shared';\n\n/** A wrapped filter. */\nexport interface Wrapper {\n  /** The filter. */\n  inner: Shared;\n}\n`,
  `/** A wrapped filter. */\nexport interface Wrapper {\n  /** The filter, as text. */\n  inner: string;\n}\n`,
][variant];

/** A global script: no imports or exports, so every file sees its declarations. */
const ambient = (variant: number) => [
  `/** Paging for every list. */\ninterface Paging {\n  /** The page, from 1. */\n  page: number;\n}\n`,
  `/** Paging for every list. */\ninterface Paging {\n  /** The page, from 1. */\n  page: number;\n  /** Items on a page. */\n  size: number;\n}\n`,
][variant];

const method = (name: string, parameter: string, toolName?: string) => `  /**
   * Finds products by ${name}. Use it when the customer asks for ${name}. It reads only.
   * @param options The filters.
   */
  @Tool({ effect: 'read'${toolName ? `, name: '${toolName}'` : ''} })
  ${name}(@Param() options: ${parameter}): string {
    return '${name}';
  }
`;

/** `a.tools.ts`: tools on the shared type; the variants rename the class, add and drop methods. */
const aTools = (variant: number) => {
  const className = variant === 2 ? 'RenamedTools' : 'ATools';
  const methods = [method('first', 'Shared'), ...(variant !== 1 ? [method('second', '{ /** A word. */ word: string }')] : [])];
  // Variant 3 takes the name of a tool in b.tools.ts: the duplicate is an error on the later one.
  if (variant === 3) methods.push(method('third', 'Paging', 'b_lookup'));
  return `import { Param, Tool } from '@toolwright/core';\nimport type { Shared } from './shared';\n\nexport class ${className} {\n${methods.join('\n')}}\n`;
};

const bTools = (variant: number) =>
  `import { Param, Tool } from '@toolwright/core';\nimport type { Wrapper } from './wrapper';\n\nexport class BTools {\n${[
    method('lookup', 'Wrapper', 'b_lookup'),
    method('page', variant === 0 ? 'Paging' : '{ /** The page. */ page: number }'),
  ].join('\n')}}\n`;

/** A tools file that comes and goes. */
const cTools = `import { Param, Tool } from '@toolwright/core';\nimport type { Shared } from './shared';\n\nexport class CTools {\n${method('later', 'Shared')}}\n`;

type Edit =
  | { file: 'shared.ts'; variant: number }
  | { file: 'wrapper.ts'; variant: number }
  | { file: 'ambient.d.ts'; variant: number }
  | { file: 'a.tools.ts'; variant: number }
  | { file: 'b.tools.ts'; variant: number }
  | { file: 'c.tools.ts'; present: boolean };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ file: fc.constant('shared.ts' as const), variant: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ file: fc.constant('wrapper.ts' as const), variant: fc.integer({ min: 0, max: 1 }) }),
  fc.record({ file: fc.constant('ambient.d.ts' as const), variant: fc.integer({ min: 0, max: 1 }) }),
  fc.record({ file: fc.constant('a.tools.ts' as const), variant: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ file: fc.constant('b.tools.ts' as const), variant: fc.integer({ min: 0, max: 1 }) }),
  fc.record({ file: fc.constant('c.tools.ts' as const), present: fc.boolean() }),
);

/** Makes the edit; returns the file it touched, as a watcher would name it. */
function apply(dir: string, change: Edit): string {
  const file = path.join(dir, 'src', change.file);
  if (change.file === 'c.tools.ts') {
    if (change.present) fs.writeFileSync(file, cTools);
    else fs.rmSync(file, { force: true });
    return file;
  }
  const text = { 'shared.ts': shared, 'wrapper.ts': wrapper, 'ambient.d.ts': ambient, 'a.tools.ts': aTools, 'b.tools.ts': bTools }[change.file](change.variant);
  fs.writeFileSync(file, text);
  return file;
}

const startingProject = () =>
  makeTempProject({
    'src/shared.ts': shared(0),
    'src/wrapper.ts': wrapper(0),
    'src/ambient.d.ts': ambient(0),
    'src/a.tools.ts': aTools(0),
    'src/b.tools.ts': bTools(0),
  });

/** Everything a run yields that a user sees. */
const observed = (result: GenerateResult) => ({ code: result.code, checksCode: result.checksCode, diagnostics: result.diagnostics, tools: result.tools });

describe('incremental runs', () => {
  it('after any sequence of edits, a reused generator yields exactly what a fresh run yields', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (edits) => {
        const project = startingProject();
        try {
          const options = { project: project.tsconfig, write: false };
          const watching = new Generator(options);
          watching.run();
          for (const change of edits) {
            // Told which file changed, as the watcher tells it.
            watching.refresh([apply(project.dir, change)]);
            expect(observed(watching.run())).toEqual(observed(new Generator(options).run()));
          }
        } finally {
          project.cleanup();
        }
      }),
      { numRuns: 20 },
    );
  }, 600_000);

  it('builds again only the tools whose types reach the changed file', () => {
    const project = startingProject();
    try {
      const generator = new Generator({ project: project.tsconfig, write: false });
      const rerun = (change: Edit) => {
        apply(project.dir, change);
        generator.refresh();
        return generator.run();
      };
      const model = (result: GenerateResult, name: string) => result.tools.find((t) => t.name === name);
      const first = generator.run();
      // Only b.tools.ts imports wrapper.ts.
      const second = rerun({ file: 'wrapper.ts', variant: 1 });
      expect(model(second, 'first')).toBe(model(first, 'first'));
      expect(model(second, 'second')).toBe(model(first, 'second'));
      expect(model(second, 'b_lookup')).not.toBe(model(first, 'b_lookup'));
      expect(model(second, 'page')).not.toBe(model(first, 'page'));
      // wrapper.ts no longer imports shared.ts: only a.tools.ts reaches it now.
      const third = rerun({ file: 'shared.ts', variant: 1 });
      expect(model(third, 'first')).not.toBe(model(second, 'first'));
      expect(model(third, 'b_lookup')).toBe(model(second, 'b_lookup'));
      // A global declaration can reach any tool.
      const fourth = rerun({ file: 'ambient.d.ts', variant: 1 });
      for (const name of ['first', 'second', 'b_lookup', 'page']) expect(model(fourth, name)).not.toBe(model(third, name));
    } finally {
      project.cleanup();
    }
  });
});
