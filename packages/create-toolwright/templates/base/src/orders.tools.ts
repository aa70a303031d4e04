import { Param, Tool, ToolError, ToolGroup } from '@toolwright/core';

interface Order {
  status: 'paid' | 'shipped' | 'delivered';
  eta: string | null;
}

/** Stands for your database: the tools class is where it meets the model. */
const ORDERS = new Map<string, Order>([
  ['A-1001', { status: 'shipped', eta: '2026-10-20' }],
  ['A-1002', { status: 'delivered', eta: null }],
]);

/** Orders of the online shop. */
@ToolGroup({ prefix: 'orders' }) // tool names become orders_<snake_case(method)>
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
    if (!order) throw new ToolError(`order ${numero} not found`); // the model reads this message
    return order;
  }
}
