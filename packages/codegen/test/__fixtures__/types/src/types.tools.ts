import { Param, Tool } from '@toolwright/core';
import type { Box, Cents, Contact, Entry, Expr, Json, Labelled, Labels, LongSlug, Point, Settings, Size, Slug, Symbolic, Tag, Tags, UserId, WordArray } from './types';

type Flag = boolean & { readonly __brand: 'Flag' };

/** Tools whose parameters each exercise one TypeScript construct. */
export class TypeTools {
  /**
   * Takes branded and intersected primitives.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param userId A branded string.
   * @param amount A branded number.
   * @param flag A branded boolean.
   * @param size Literals or any string.
   * @param sizes An array of sizes.
   * @param code A branded literal.
   * @param tagged A branded array.
   */
  @Tool()
  brands(
    @Param() userId: UserId,
    @Param() amount: Cents,
    @Param() flag: Flag,
    @Param() size: Size,
    @Param() sizes: Size[],
    @Param() code: 'A1' & { readonly __brand: 'Code' },
    @Param() tagged: Tag[] & { readonly __brand: 'Tagged' },
  ): void {}

  /**
   * Takes array-like types.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param tags An interface extending Array.
   * @param labels An interface extending ReadonlyArray.
   * @param readonlyTags A ReadonlyArray.
   * @param pair A readonly tuple.
   * @param maybe A tuple with an optional element.
   * @param nothing The empty tuple.
   * @param numbers An ArrayLike.
   * @param words An Iterable.
   * @param wordArray A class extending Array.
   */
  @Tool()
  arrays(
    @Param() tags: Tags,
    @Param() labels: Labels,
    @Param() readonlyTags: ReadonlyArray<Tag>,
    @Param() pair: readonly [string, number],
    @Param() maybe: [string, number?],
    @Param() nothing: [],
    @Param() numbers: ArrayLike<number>,
    @Param() words: Iterable<string>,
    @Param() wordArray: WordArray,
  ): void {}

  /**
   * Takes URLs.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param homepage A URL.
   * @param links URLs.
   * @param backup A URL or null.
   */
  @Tool()
  links(@Param() homepage: URL, @Param() links: URL[], @Param() backup: URL | null): void {}

  /**
   * Takes type aliases with JSDoc tags.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param slug A slug.
   * @param long A long slug.
   * @param slugs Slugs.
   * @param entry An entry.
   * @param list Slugs, as Array<Slug>.
   * @param pair A slug and a number.
   */
  @Tool()
  aliases(
    @Param() slug: Slug,
    @Param() long: LongSlug,
    @Param() slugs: Slug[],
    @Param() entry: Entry,
    @Param() list: Array<Slug>,
    @Param() pair: [Slug, number],
  ): void {}

  /**
   * Takes object shapes.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param contact An either/or.
   * @param empty An empty record.
   * @param anything Any object.
   * @param point A one-line interface.
   * @param symbolic Symbol-keyed members.
   * @param settings A nested undocumented property.
   * @param box A one-line interface with tags.
   * @param labelled A record with a key that must be absent.
   */
  @Tool()
  shapes(
    @Param() contact: Contact,
    @Param() empty: Record<string, never>,
    @Param() anything: object,
    @Param() point: Point,
    @Param() symbolic: Symbolic,
    @Param() settings: Settings,
    @Param() box: Box,
    @Param() labelled: Labelled,
  ): void {}

  /**
   * Takes recursive unions.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param expr Nested lists of numbers.
   * @param json Any JSON value.
   */
  @Tool()
  recursive(@Param() expr: Expr, @Param() json: Json): void {}
}
