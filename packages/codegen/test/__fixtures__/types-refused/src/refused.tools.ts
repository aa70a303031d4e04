import { Input, Param, Tool } from '@toolwright/core';

export enum Computed {
  Fixed = 1,
  Measured = 'abc'.length,
}

/** An order with an asynchronous total. */
export interface Order {
  /** The order number. */
  id: string;
  /** Its total, computed later. */
  total: Promise<number>;
}

/** Words of a batch, with a label a JSON array cannot carry. */
export interface Batch extends Array<string> {
  /** The batch label. */
  label: string;
}

/**
 * A count.
 * @minimum abc
 */
export type BadCount = number;

/** A list of words: an array, so it cannot be the input object of a tool. */
export class WordList extends Array<string> {}

/** Tools that take types JSON cannot carry; each must be refused with a clear error. */
export class RefusedTools {
  /**
   * Takes promises and other library objects.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param later A promise.
   * @param thenable A PromiseLike.
   * @param order An object with a promise inside.
   * @param pattern A RegExp.
   * @param cache A WeakMap.
   * @param bytes A Uint8Array.
   * @param failure An Error.
   * @param collator A library object with methods.
   * @param batch An array with an extra member.
   */
  @Tool()
  library(
    @Param() later: Promise<string>,
    @Param() thenable: PromiseLike<number>,
    @Param() order: Order,
    @Param() pattern: RegExp,
    @Param() cache: WeakMap<object, string>,
    @Param() bytes: Uint8Array,
    @Param() failure: Error,
    @Param() collator: Intl.Collator,
    @Param() batch: Batch,
  ): void {}

  /**
   * Takes an enum with a computed member, an unknown type name and a required never.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param level An enum with a computed member.
   * @param missing A type name that does not exist.
   * @param missingList An array of a type name that does not exist.
   * @param impossible An object with a required never.
   * @param count An alias with a bad tag.
   */
  @Tool()
  names(
    @Param() level: Computed,
    // @ts-expect-error the name is missing on purpose
    @Param() missing: NoSuchType,
    // @ts-expect-error the name is missing on purpose
    @Param() missingList: Array<AlsoMissing>,
    @Param() impossible: { /** Never there. */ gone: never },
    @Param() count: BadCount,
  ): void {}

  /**
   * Takes an array where the input object belongs.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   */
  @Tool()
  listInput(@Input() words: WordList): void {}

  /**
   * Takes the other library types JSON cannot carry.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param callable A Function.
   * @param readonlyMap A ReadonlyMap.
   * @param readonlySet A ReadonlySet.
   * @param weakSet A WeakSet.
   * @param weakRef A WeakRef.
   * @param buffer An ArrayBuffer.
   * @param nodeBuffer A Node Buffer.
   * @param rest A tuple with a rest element.
   */
  @Tool()
  more(
    @Param() callable: Function,
    @Param() readonlyMap: ReadonlyMap<string, number>,
    @Param() readonlySet: ReadonlySet<string>,
    @Param() weakSet: WeakSet<object>,
    @Param() weakRef: WeakRef<object>,
    @Param() buffer: ArrayBuffer,
    @Param() nodeBuffer: Buffer,
    @Param() rest: [string, ...number[]],
  ): void {}

}
