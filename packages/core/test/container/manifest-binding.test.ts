import { Ctx, Input, ManifestMismatchError, Param, Tool, ToolContainer, defineToolManifest } from '@toolwright/core';
import type { ToolManifestEntry } from '@toolwright/core';
import { OrderTools, buscarPedidoDefinition, ordersManifest } from '../fixtures/orders';

class Empty {}

const entry = (overrides: Partial<ToolManifestEntry>): ToolManifestEntry => ({ ...ordersManifest.entries[0], ...overrides });

const REGENERATE = 'Run `tools-codegen` to regenerate the manifest';

/** The error of a construction that must fail; `stale` says whether it should tell to regenerate. */
function constructionError(build: () => unknown, stale = true): ManifestMismatchError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestMismatchError);
    if (stale) expect((error as Error).message).toContain(REGENERATE);
    else expect((error as Error).message).not.toContain('tools-codegen');
    return error as ManifestMismatchError;
  }
  throw new Error('expected the container constructor to throw');
}

describe('ToolContainer refuses a manifest that does not match the code', () => {
  it('accepts a matching manifest', () => {
    const container = new ToolContainer({ manifest: ordersManifest, providers: [new OrderTools()] });
    expect(container.names).toEqual(['buscar_pedido']);
  });

  it('a provider with a @Tool method that has no manifest entry', () => {
    class Extra {
      @Tool()
      doIt() {
        return 1;
      }
    }
    const error = constructionError(
      () => new ToolContainer({ manifest: ordersManifest, providers: [new OrderTools(), new Extra()] }),
    );
    expect(error.problems).toEqual(['Extra.doIt has @Tool but no manifest entry']);
  });

  it('an entry whose class has no provider says what to pass, not to regenerate', () => {
    const error = constructionError(() => new ToolContainer({ manifest: ordersManifest, providers: [] }), false);
    expect(error.problems).toEqual([
      "OrderTools.buscarPedido is in the manifest but no provider instance of OrderTools was given: pass `new OrderTools(...)` in `providers` (with @toolwright/nest, list OrderTools in a module's providers)",
    ]);
    expect(error.message).toMatch(/^The tool providers do not match the manifest \(1 problem\):\n/);
  });

  it('one problem per missing class, naming each of its tools', () => {
    class Second {
      @Tool({ effect: 'read' })
      a() {
        return 1;
      }
      @Tool({ effect: 'read' })
      b() {
        return 2;
      }
    }
    const manifest = defineToolManifest([
      entry({ provider: Second, method: 'a', definition: { ...buscarPedidoDefinition, name: 'a' }, parameters: [] }),
      entry({ provider: Second, method: 'b', definition: { ...buscarPedidoDefinition, name: 'b' }, parameters: [] }),
    ]);
    const error = constructionError(() => new ToolContainer({ manifest, providers: [] }), false);
    expect(error.problems).toEqual([expect.stringMatching(/^Second\.a, Second\.b are in the manifest but no provider instance of Second was given: pass `new Second\(\.\.\.\)`/)]);
  });

  it('a class passed instead of an instance says to pass an instance, once', () => {
    const error = constructionError(() => new ToolContainer({ manifest: ordersManifest, providers: [OrderTools] }), false);
    expect(error.problems).toEqual(['providers[0] is the class OrderTools, not an instance of it; pass `new OrderTools(...)`']);
  });

  it('null or a primitive among the providers is named by its index', () => {
    const providers = [new OrderTools(), null, 'orders'] as unknown as object[];
    const error = constructionError(() => new ToolContainer({ manifest: ordersManifest, providers }), false);
    expect(error.problems).toEqual([
      'providers[1] is null, not a tools class instance',
      'providers[2] is string, not a tools class instance',
    ]);
  });

  it('an instance of a second copy of the class (the module loaded twice) is told apart from a stale manifest', () => {
    const copy = { OrderTools: class OrderTools {} }.OrderTools;
    const error = constructionError(() => new ToolContainer({ manifest: ordersManifest, providers: [new copy()] }), false);
    expect(error.problems).toEqual([expect.stringMatching(/^providers\[0\] is a OrderTools, but not the OrderTools class the manifest imports: the module is loaded twice/)]);
  });

  it('a stale problem and a wiring problem together: both listed, and the advice to regenerate', () => {
    class Extra {
      @Tool()
      doIt() {
        return 1;
      }
    }
    const error = constructionError(() => new ToolContainer({ manifest: ordersManifest, providers: [new Extra()] }));
    expect(error.problems).toEqual([
      expect.stringContaining('no provider instance of OrderTools was given'),
      'Extra.doIt has @Tool but no manifest entry',
    ]);
  });

  it('a stale name, effect and parameter count, all reported at once', () => {
    const manifest = defineToolManifest([
      entry({
        definition: { ...buscarPedidoDefinition, name: 'old_name' },
        effect: 'write',
        parameters: [{ kind: 'param', property: 'numero' }],
      }),
    ]);
    const error = constructionError(() => new ToolContainer({ manifest, providers: [new OrderTools()] }));
    expect(error.problems).toEqual([
      'OrderTools.buscarPedido: manifest name "old_name", decorators say "buscar_pedido"',
      `OrderTools.buscarPedido: manifest effect 'write', decorators say 'read'`,
      'OrderTools.buscarPedido: manifest maps 1 parameter(s), the method has 2',
    ]);
  });

  it('stale allowed_callers: the loops refuse callers by the definition, so it must match the decorators', () => {
    const manifest = defineToolManifest([entry({ definition: { ...buscarPedidoDefinition, allowed_callers: ['code_execution_20250825'] } })]);
    const error = constructionError(() => new ToolContainer({ manifest, providers: [new OrderTools()] }));
    expect(error.problems).toEqual(['OrderTools.buscarPedido: manifest allowed_callers ["code_execution_20250825"], decorators say callers null']);
  });

  it('a parameter whose kind changed', () => {
    const manifest = defineToolManifest([entry({ parameters: [{ kind: 'input' }, { kind: 'ctx' }] })]);
    const error = constructionError(() => new ToolContainer({ manifest, providers: [new OrderTools()] }));
    expect(error.problems).toEqual([`OrderTools.buscarPedido: parameter 0 is @Param in the code, 'input' in the manifest`]);
  });

  it('a manifest entry for a method that lost its @Tool decorator', () => {
    const manifest = defineToolManifest([...ordersManifest.entries, entry({ provider: OrderTools, method: 'gone' })]);
    const error = constructionError(() => new ToolContainer({ manifest, providers: [new OrderTools()] }));
    expect(error.problems).toEqual(['OrderTools.gone is in the manifest but the method has no @Tool decorator']);
  });

  it('duplicate tool names', () => {
    class Twin {
      @Tool({ name: 'buscar_pedido', effect: 'read' })
      find(@Param() numero: string, @Ctx() ctx: unknown) {
        return [numero, ctx];
      }
    }
    const manifest = defineToolManifest([...ordersManifest.entries, entry({ provider: Twin, method: 'find' })]);
    const error = constructionError(() => new ToolContainer({ manifest, providers: [new OrderTools(), new Twin()] }));
    expect(error.problems).toEqual(['Twin.find and OrderTools.buscarPedido are both named "buscar_pedido"']);
  });

  it('an undecorated parameter', () => {
    class Loose {
      @Tool()
      act(@Input() input: Empty, extra: string) {
        return [input, extra];
      }
    }
    const manifest = defineToolManifest([
      entry({ provider: Loose, method: 'act', effect: 'write', definition: { ...buscarPedidoDefinition, name: 'act' }, parameters: [{ kind: 'input' }, { kind: 'param', property: 'extra' }] }),
    ]);
    const error = constructionError(() => new ToolContainer({ manifest, providers: [new Loose()] }));
    expect(error.problems).toEqual(['Loose.act: parameter 1 has no @Param, @Input or @Ctx decorator']);
  });
});

describe('container defaults are checked', () => {
  it.each([
    [{ maxConcurrency: 0 }, 'defaults.maxConcurrency must be a positive integer, got 0'],
    [{ timeoutMs: -1 }, 'defaults.timeoutMs must be a positive integer, got -1'],
    [{ onWriteFailure: 'stop' as never }, `defaults.onWriteFailure must be 'halt' or 'continue', got stop`],
  ])('%j', (defaults, message) => {
    expect(() => new ToolContainer({ manifest: ordersManifest, providers: [new OrderTools()], defaults })).toThrow(message);
  });
});

describe('execute options are checked like the defaults', () => {
  const container = new ToolContainer({ manifest: ordersManifest, providers: [new OrderTools()] });
  it.each([
    [{ maxConcurrency: 0 }, 'ToolContainer.execute: options.maxConcurrency must be a positive integer, got 0.'],
    [{ maxConcurrency: Number.NaN }, 'ToolContainer.execute: options.maxConcurrency must be a positive integer, got NaN.'],
    [{ onWriteFailure: 'stop' as never }, `ToolContainer.execute: options.onWriteFailure must be 'halt' or 'continue', got stop.`],
  ])('%j', async (options, message) => {
    await expect(container.execute([], options)).rejects.toThrow(new RangeError(message));
  });
});

describe('ToolContainer explains a manifest that is missing or not a manifest', () => {
  const HOW = "run tools-codegen (it writes src/tools.generated.ts; the templates run it before build, test and start), then pass the module's export: " +
    "`import { toolManifest } from './tools.generated'` and `{ manifest: toolManifest }`.";
  it.each([
    ['undefined (a misnamed import, or the module never generated)', undefined, 'ToolContainer: no manifest was given (manifest is undefined); '],
    ['null', null, 'ToolContainer: no manifest was given (manifest is null); '],
    ['the generated module itself', { toolManifest: ordersManifest }, 'ToolContainer: manifest is the generated module itself, not its toolManifest export; '],
    ['the --json definitions', [buscarPedidoDefinition], 'ToolContainer: manifest is an array (the --json definitions are for other tools, not the run time); '],
    ['some other object', { tools: [] }, 'ToolContainer: manifest is an object without an "entries" list (keys: tools); '],
    ['a string', 'src/tools.generated.ts', 'ToolContainer: manifest is a string; '],
  ])('%s', (_, manifest, start) => {
    expect(() => new ToolContainer({ manifest: manifest as never, providers: [new OrderTools()] })).toThrow(new TypeError(start + HOW));
  });
});
