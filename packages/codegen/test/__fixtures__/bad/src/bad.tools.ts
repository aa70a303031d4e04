import { Input, Param, Tool } from '@toolwright/core'; import { IsString } from 'class-validator';

/** A decorator that happens to be called Tool; its methods are not tools. */
function LocalTool(): MethodDecorator {
  return () => undefined;
}
export { LocalTool as Tool2 };

export class NotATool {
  /** Not a tool: the decorator is not toolwright's. */
  @LocalTool()
  ignored(): void {}
}

export interface Settings {
  /**
   * Retries.
   * @minimum abc
   */
  retries: number;
  /**
   * Code.
   * @pattern [a-
   */
  code: string;
  /**
   * Colour.
   * @format colour
   */
  colour: string;
}

export class BadTools {
  /**
   * Takes every type JSON cannot carry.
   * It exists to test the diagnostics of the code generator.
   * It does nothing.
   * @param callback A function.
   * @param lookup A map.
   * @param unique A set.
   * @param key A symbol.
   * @param big A bigint.
   * @param anything Any value.
   * @param settings Settings with bad tags.
   */
  @Tool()
  unsupported(
    @Param() callback: (x: number) => string,
    @Param() lookup: Map<string, number>,
    @Param() unique: Set<string>,
    @Param() key: symbol,
    @Param() big: bigint,
    @Param() anything: any,
    @Param() settings: Settings,
  ): void {}

  /**
   * Generic over its input, which no schema can describe.
   * It exists to test the diagnostics of the code generator.
   * It does nothing.
   * @param value A value of an open type.
   */
  @Tool()
  generic<T>(@Param() value: T): void {}

  @Tool({ name: 'has space' })
  undocumented(@Param() x: string): void {}

  /**
   * Short.
   * @example {"count": "three"}
   */
  @Tool({ name: 'duplicate' })
  first(@Param() count: number): void {}

  /**
   * Has the same name as another tool.
   * It exists to test the diagnostics of the code generator.
   * It does nothing.
   */
  @Tool({ name: 'duplicate' })
  second(): void {}
}

export class LooseInput {
  /** Checked at run time. */
  @IsString()
  checked!: string;

  /** Not checked by anything. */
  loose!: string;
}

export class LooseTools {
  /**
   * Takes a DTO with a property no decorator checks.
   * It exists to test the diagnostics of the code generator.
   * It does nothing.
   */
  @Tool()
  loose(@Input() input: LooseInput): void {}
}
