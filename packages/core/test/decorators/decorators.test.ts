import { Ctx, Input, Param, Tool, ToolDefinitionError, ToolGroup, deriveToolName } from '@toolwright/core';
import { readDecoratedTools } from '../../src/decorators/tool-metadata';

class Dto {
  a!: string;
}

describe('decorators record what the container and codegen read', () => {
  it('stores tool options, parameter kinds in order, and derives names from the group prefix', () => {
    const guard = () => true;

    @ToolGroup({ prefix: 'orders' })
    class OrdersTools {
      @Tool({ effect: 'read', timeoutMs: 5 })
      getStatus(@Param({ pattern: /^A-\d{4}$/ }) numero: string, @Ctx() ctx: unknown) {
        return [numero, ctx];
      }

      @Tool({ name: 'cancel_it', guard })
      cancel(@Input() input: Dto) {
        return input;
      }
    }

    const tools = readDecoratedTools(OrdersTools);
    expect(tools.map((t) => t.name)).toEqual(['orders_get_status', 'cancel_it']);
    expect(tools[0].options).toEqual({ effect: 'read', timeoutMs: 5 });
    expect(tools[0].params.map((p) => [p.index, p.kind])).toEqual([
      [0, 'param'],
      [1, 'ctx'],
    ]);
    expect(tools[0].params[0].options?.pattern).toEqual(/^A-\d{4}$/);
    expect(tools[1].options.guard).toBe(guard);
    expect(tools[1].params.map((p) => p.kind)).toEqual(['input']);
  });

  it('inherits tools from a base class', () => {
    class Base {
      @Tool({ effect: 'read' })
      ping() {
        return 'pong';
      }
    }
    class Derived extends Base {
      @Tool()
      write() {
        return 1;
      }
    }
    expect(readDecoratedTools(Derived).map((t) => t.method).sort()).toEqual(['ping', 'write']);
  });

  it('derives snake_case names', () => {
    expect(deriveToolName('getStatus', 'orders')).toBe('orders_get_status');
    expect(deriveToolName('parseHTMLPage')).toBe('parse_html_page');
    expect(deriveToolName('list2Items')).toBe('list2_items');
  });
});

describe('decorator misuse fails at class definition with a message that says what to fix', () => {
  const define = (body: () => void) => {
    try {
      body();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolDefinitionError);
      return (error as Error).message;
    }
    throw new Error('expected the class definition to throw');
  };

  it('two @Input on one method', () => {
    const message = define(() => {
      class Bad {
        @Tool()
        m(@Input() a: Dto, @Input() b: Dto) {
          return [a, b];
        }
      }
      return Bad;
    });
    expect(message).toMatch(/Bad\.m: more than one @Input\(\); .*keep one/);
  });

  it('@Input mixed with @Param', () => {
    const message = define(() => {
      class Bad {
        @Tool()
        m(@Input() a: Dto, @Param() b: string) {
          return [a, b];
        }
      }
      return Bad;
    });
    expect(message).toMatch(/Bad\.m: @Input\(\) mixed with @Param\(\)/);
  });

  it('@Tool on a static method', () => {
    const message = define(() => {
      class Bad {
        @Tool()
        static m() {
          return 1;
        }
      }
      return Bad;
    });
    expect(message).toMatch(/static method Bad\.m.*remove "static"/);
  });

  it('an invalid name', () => {
    const message = define(() => {
      class Bad {
        @Tool({ name: 'buscar pedido' })
        m() {
          return 1;
        }
      }
      return Bad;
    });
    expect(message).toContain('name "buscar pedido" must match');
  });

  it('a name longer than 128 characters', () => {
    const message = define(() => {
      class Bad {
        @Tool({ name: 'x'.repeat(129) })
        m() {
          return 1;
        }
      }
      return Bad;
    });
    expect(message).toContain('at most 128');
  });

  it('an invalid effect', () => {
    const message = define(() => {
      class Bad {
        @Tool({ effect: 'delete' as never })
        m() {
          return 1;
        }
      }
      return Bad;
    });
    expect(message).toContain(`effect must be 'read' or 'write', got "delete"`);
  });

  it('callers the API does not know, or none', () => {
    for (const callers of [['code_execution'], []]) {
      const message = define(() => {
        class Bad {
          @Tool({ callers: callers as never })
          m() {
            return 1;
          }
        }
        return Bad;
      });
      expect(message).toContain(`callers must be a non-empty list of 'direct', 'code_execution_20250825', 'code_execution_20260120', 'code_execution_20260521', got ${JSON.stringify(callers)}.`);
    }
  });

  it('a read declared destructive', () => {
    const message = define(() => {
      class Bad {
        @Tool({ effect: 'read', destructive: true })
        m() {
          return 1;
        }
      }
      return Bad;
    });
    expect(message).toBe(`@Tool on Bad.m: a read cannot be destructive; declare effect: 'write', or drop destructive.`);
  });

  it.each(['timeoutMs', 'maxResultChars'])('a %s that is not a positive integer', (key) => {
    const message = define(() => {
      class Bad {
        @Tool({ [key]: 0 })
        m() {
          return 1;
        }
      }
      return Bad;
    });
    expect(message).toBe(`@Tool on Bad.m: ${key} must be a positive integer, got 0.`);
  });

  it('an invalid group prefix', () => {
    const message = define(() => {
      @ToolGroup({ prefix: 'pedidos ação' })
      class Bad {}
      return Bad;
    });
    expect(message).toContain('prefix "pedidos ação" must match');
  });

  it('two decorators on one parameter', () => {
    const message = define(() => {
      class Bad {
        @Tool()
        m(@Param() @Ctx() a: string) {
          return a;
        }
      }
      return Bad;
    });
    expect(message).toContain('parameter 0 has more than one of @Param, @Input, @Ctx');
  });
});
