import { Input, Param, Tool, ToolGroup } from '@toolwright/core';
import { AddressDto, CreateOrderDto, FileCategoryDto, Priority } from './contract.dto';

/** An amount of money. */
export interface Money {
  /**
   * The amount, to the cent.
   * @multipleOf 0.01
   * @minimum 0
   */
  amount: number;
  /** The currency. */
  currency: 'EUR' | 'USD';
}

/** What each tool received, in call order. */
export const received: Array<{ tool: string; args: unknown[] }> = [];

/** The tools the differential fuzz compares against their schemas. */
@ToolGroup({ prefix: 'contract' })
export class ContractTools {
  /**
   * Places an order for the signed-in customer.
   * Use it once the customer has confirmed the lines and the address.
   * It does not take payment.
   * @example {"email": "ana@example.com", "address": {"street": "Rua A 1", "zip": "10115", "country": "PT"}, "lines": [{"sku": "SKU-1", "qty": 1, "unitPrice": 19.99}], "priority": 2}
   */
  @Tool()
  createOrder(@Input() input: CreateOrderDto): string {
    received.push({ tool: 'contract_create_order', args: [input] });
    return 'ok';
  }

  /**
   * Schedules a reminder for the customer.
   * Use it when the customer asks to be reminded of something at a given time.
   * It does not send anything now.
   * @param text What to remind of, 1 to 30 characters, any script.
   * @param at When, an RFC 3339 date-time with an offset.
   * @param level How urgent.
   * @param kind Once, or every day.
   * @param ref The order it is about, a UUID.
   * @param price A price to mention, or null.
   * @param scores Scores by name.
   * @param address Where the customer is.
   * @param limit How many reminders at most, 10 when left out.
   */
  @Tool()
  schedule(
    @Param({ minLength: 1, maxLength: 30 }) text: string,
    @Param() at: Date,
    @Param() level: Priority,
    @Param() kind: 'once' | 'daily',
    @Param({ format: 'uuid' }) ref: string,
    @Param() price: Money | null,
    @Param() scores: Record<string, number>,
    @Param() address: AddressDto,
    @Param({ minimum: 1, maximum: 50 }) limit = 10,
  ): string {
    received.push({ tool: 'contract_schedule', args: [text, at, level, kind, ref, price, scores, address, limit] });
    return 'ok';
  }

  /**
   * Files a category, with the categories under it, in the shop's tree.
   * Use it when the shop owner adds or reorganises categories.
   * It does not move products.
   * @example {"category": {"name": "Shoes", "children": [{"name": "Boots"}]}}
   */
  @Tool()
  fileCategory(@Input() input: FileCategoryDto): string {
    received.push({ tool: 'contract_file_category', args: [input] });
    return 'ok';
  }

  /**
   * Reserves units of a product.
   * Use it before an order is placed, to hold stock.
   * It does not place the order.
   * @param code Product code, three capital letters.
   * @param units Units to hold, 1 to 10.
   * @param until Until when, an RFC 3339 date-time with an offset; left out for an hour.
   */
  @Tool({ effect: 'write', strict: true })
  reserve(
    @Param({ pattern: /^[A-Z]{3}$/ }) code: string,
    @Param({ minimum: 1, maximum: 10 }) units: number,
    @Param() until?: Date,
  ): string {
    received.push({ tool: 'contract_reserve', args: [code, units, until] });
    return 'ok';
  }
}
