import { Ctx, Input, ManifestMismatchError, Param, Tool, ToolContainer, defineToolManifest } from '@toolwright/core';
import type { ToolManifestEntry } from '@toolwright/core';
import { OrderTools, buscarPedidoDefinition, ordersManifest } from '../fixtures/orders';

class Empty {}

const entry = (overrides: Partial<ToolManifestEntry>): ToolManifestEntry => ({ ...ordersManifest.entries[0], ...overrides });

function constructionError(build: () => unknown): ManifestMismatchError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestMismatchError);
    expect((error as Error).message).toContain('Run `tools-codegen` to regenerate the manifest');
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

  it('an entry whose class has no provider', () => {
    const error = constructionError(() => new ToolContainer({ manifest: ordersManifest, providers: [] }));
    expect(error.problems).toEqual([
      'OrderTools.buscarPedido is in the manifest but no provider instance of OrderTools was given',
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
