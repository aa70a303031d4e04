import { Param, Tool, ToolError, ToolGroup } from '@toolwright/core';

const ORDERS = new Map<string, { status: 'shipped' | 'cancelled' }>([['A-1001', { status: 'shipped' }]]);

/** Orders of the online shop. */
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

  /**
   * Cancels a purchase order by its number. Use it only when the customer asks to cancel. It
   * changes the order for good and does not refund anything.
   * @param numero Order number in the format A-1234.
   * @example {"numero": "A-1001"}
   */
  @Tool({ effect: 'write' })
  async cancel(@Param({ pattern: /^A-\d{4}$/ }) numero: string) {
    const order = ORDERS.get(numero);
    if (!order) throw new ToolError(`order ${numero} not found`);
    order.status = 'cancelled';
    return order;
  }
}
