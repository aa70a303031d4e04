import { Ctx, Input, Param, Tool, ToolGroup, type ToolContext } from '@toolwright/core';
import { CreateProductInput, DimensionsInput } from './catalog.dto';
import { Priority, Warehouse, type Category, type Filter, type Labelled, type Money, type Page } from './catalog.types';

const MAX_RESULTS = 50;

/** Everything the tools were called with, for the end-to-end test. */
export const calls: unknown[][] = [];

/** The product catalog. */
@ToolGroup({ prefix: 'catalog' })
export class CatalogTools {
  /**
   * Searches the product catalog by free text.
   * Use it when the customer looks for a product but has no product number.
   * It does not change stock or prices.
   * @param query Words to search for, 2 to 40 characters.
   * @param limit How many products to return, 1 to 50.
   * @param warehouse Only products stored here; null for every warehouse.
   * @param filter Narrows the result.
   * @example {"query": "desk lamp", "limit": 5, "warehouse": "north"}
   * @example {"query": "chair", "warehouse": null, "filter": {"sort": "asc"}}
   */
  @Tool({ effect: 'read' })
  searchProducts(
    @Param({ minLength: 2, maxLength: 40 }) query: string,
    @Param({ minimum: 1, maximum: MAX_RESULTS }) limit: number | undefined,
    @Param() warehouse: Warehouse | null,
    @Ctx() ctx: ToolContext,
    @Param() filter?: Filter,
  ): string {
    calls.push(['searchProducts', query, limit, warehouse, ctx.toolName, filter]);
    return `found ${query}`;
  }

  /**
   * Shows how every supported TypeScript type reaches the schema.
   * Use it only in tests of the code generator.
   * It does nothing at all.
   * @param text A string.
   * @param count A number.
   * @param flag A boolean.
   * @param direction A literal union.
   * @param level A numeric enum.
   * @param names A readonly array.
   * @param point A tuple of two numbers.
   * @param price A nested interface.
   * @param scores A record of numbers.
   * @param bounds A record with literal keys.
   * @param mixed A union of primitives.
   * @param either A union of object types.
   * @param labelled An intersection.
   * @param partial A Partial.
   * @param picked A Pick.
   * @param omitted An Omit.
   * @param required A Required of a Partial.
   * @param frozen A Readonly.
   * @param page An instantiated generic.
   * @param when A date.
   * @param tree A recursive type.
   * @param note A nullable string.
   * @param on A boolean literal.
   * @param inline An inline type literal.
   */
  @Tool({ name: 'catalog_type_tour', effect: 'read' })
  typeTour(
    @Param() text: string,
    @Param() count: number,
    @Param() flag: boolean,
    @Param() direction: 'up' | 'down' | 'left',
    @Param() level: Priority,
    @Param() names: readonly string[],
    @Param() point: [number, number],
    @Param() price: Money,
    @Param() scores: Record<string, number>,
    @Param() bounds: Record<'min' | 'max', number>,
    @Param() mixed: string | number,
    @Param() either: Money | Labelled,
    @Param() labelled: Labelled,
    @Param() partial: Partial<Money>,
    @Param() picked: Pick<Money, 'amount'>,
    @Param() omitted: Omit<Money, 'amount'>,
    @Param() required: Required<Partial<Money>>,
    @Param() frozen: Readonly<Money>,
    @Param() page: Page<string>,
    @Param() when: Date,
    @Param() tree: Category,
    @Param() note: string | null,
    @Param() on: true,
    @Param()
    inline: {
      /** Inline field. */
      value: string;
    },
  ): void {
    calls.push(['typeTour', text, count, flag, direction, level, names, point, price, scores, bounds, mixed, either, labelled, partial, picked, omitted, required, frozen, page, when, tree, note, on, inline]);
  }

  /**
   * Adds a product to the catalog.
   * Use it when a supplier delivers a product that is not listed yet.
   * It does not set prices; use the pricing tools for that.
   * @example {"name": "Desk lamp", "sku": "LMP-0001", "quantity": 3, "contact": "a@b.example", "supplierId": "3f1c1a2e-8d4b-4c1e-9f2a-1b2c3d4e5f60", "releasedAt": "2024-01-02T03:04:05Z", "colour": "red", "warehouse": "north", "tags": ["lamp"], "dimensions": {"width": 10, "height": 20}, "active": true}
   */
  @Tool({
    effect: 'write',
    cacheControl: { type: 'ephemeral' },
    // A method-shorthand guard is a run-time option: the codegen skips it and reads the rest.
    guard(ctx: ToolContext) {
      return ctx.toolName === 'catalog_create_product';
    },
  })
  createProduct(@Input() input: CreateProductInput, @Ctx() ctx: ToolContext): string {
    calls.push(['createProduct', input, ctx.toolName]);
    return `created ${input.sku}`;
  }

  /**
   * Reserves stock of a product for an order.
   * Use it after the customer confirmed the order.
   * It does not charge the customer.
   * @param sku Stock keeping unit, like ABC-1234.
   * @param units Units to reserve, 1 to 10.
   */
  @Tool({ strict: true })
  reserve(@Param({ pattern: /^[A-Z]{3}-\d{4}$/ }) sku: string, @Param({ minimum: 1, maximum: 10 }) units: number): string {
    calls.push(['reserve', sku, units]);
    return `reserved ${units} of ${sku}`;
  }

  /**
   * Sets the parcel size of a product.
   * Use it when a supplier reports new measurements.
   * It does not change stock or prices.
   * @param sku Stock keeping unit, like ABC-1234.
   * @param dimensions The new parcel size.
   */
  @Tool({ effect: 'write' })
  resize(@Param() sku: string, @Param() dimensions: DimensionsInput): string {
    calls.push(['resize', sku, dimensions]);
    return `resized ${sku}`;
  }
}
