import { Injectable } from '@nestjs/common';
import { Param, Tool, ToolError, ToolGroup } from '@toolwright/core';

interface Order {
  status: 'shipped' | 'delivered';
  eta: string | null;
}

const ORDERS = new Map<string, Order>([
  ['A-1001', { status: 'shipped', eta: '2026-10-20' }],
  ['A-1002', { status: 'delivered', eta: null }],
]);

/** Orders of the online shop. */
@Injectable()
@ToolGroup({ prefix: 'orders' })
export class OrdersTools {
  /**
   * Looks up a purchase order by its number. Use it when the customer asks where an order is
   * or when it arrives. It does not change, cancel or refund anything.
   * @param numero Order number in the format A-1234.
   * @example {"numero": "A-1001"}
   */
  @Tool({ effect: 'read' })
  async getStatus(@Param({ pattern: /^A-\d{4}$/ }) numero: string) {
    const order = ORDERS.get(numero);
    if (!order) throw new ToolError(`order ${numero} not found`);
    return order;
  }
}
