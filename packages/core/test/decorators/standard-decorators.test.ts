import * as ts from 'typescript';
import * as core from '@toolwright/core';
import { ToolDefinitionError } from '@toolwright/core';

/**
 * The tools file compiled as TypeScript compiles it without `experimentalDecorators`: standard
 * (TC39) decorators, parameter decorators dropped. Loading it runs the decorators.
 */
function loadCompiledWithoutExperimentalDecorators(source: string): () => unknown {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, experimentalDecorators: false },
  });
  const requireCore = (name: string) => {
    if (name !== '@toolwright/core') throw new Error(`unexpected import ${name}`);
    return core;
  };
  return () => new Function('require', 'exports', outputText)(requireCore, {});
}

const FIX = 'set "experimentalDecorators": true in the compilerOptions of the tsconfig that compiles this file';

describe('decorators called in the standard (TC39) form name the flag to set', () => {
  it('@Tool on an instance method: not "static method ...[object Object]", but experimentalDecorators', () => {
    const load = loadCompiledWithoutExperimentalDecorators(`
      import { Param, Tool } from '@toolwright/core';
      export class OrdersTools {
        @Tool({ effect: 'read' })
        getStatus(@Param() numero: string) { return numero; }
      }
    `);
    expect(load).toThrow(ToolDefinitionError);
    expect(load).toThrow(`@Tool on getStatus was called as a standard (TC39) decorator, but toolwright's decorators are TypeScript's experimental decorators: ${FIX}`);
    expect(load).not.toThrow(/static|\[object Object\]/);
  });

  it('@ToolGroup on a class', () => {
    const load = loadCompiledWithoutExperimentalDecorators(`
      import { ToolGroup } from '@toolwright/core';
      @ToolGroup({ prefix: 'orders' })
      export class OrdersTools {}
    `);
    expect(load).toThrow(`@ToolGroup on OrdersTools was called as a standard (TC39) decorator`);
    expect(load).toThrow(FIX);
  });

  it('a real static method under experimentalDecorators is still told to drop "static"', () => {
    expect(() => {
      class Clock {
        @core.Tool()
        static now() {
          return 0;
        }
      }
      return Clock;
    }).toThrow('@Tool on static method Clock.now: tools are instance methods; remove "static".');
  });
});
