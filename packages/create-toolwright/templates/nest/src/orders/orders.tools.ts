import { Injectable } from '@nestjs/common';
import { Ctx, Param, Tool, ToolError, ToolGroup, type ToolContext } from '@toolwright/core';
import type { Session } from '../chat/session.guard.js';
import { OrdersRepository, type Order } from './orders.repository.js';

/** Orders of the online shop, for the signed-in user only. */
@Injectable()
@ToolGroup({ prefix: 'orders' }) // tool names become orders_<snake_case(method)>
export class OrdersTools {
  constructor(private readonly repo: OrdersRepository) {} // injected like in any provider

  /**
   * Looks up a purchase order by its number. Use it when the customer asks where an order is
   * or when it arrives. It does not change, cancel or refund anything.
   * @param numero Order number in the format A-1234.
   * @example {"numero": "A-1001"}
   */
  @Tool({ effect: 'read' })
  async getStatus(@Param({ pattern: /^A-\d{4}$/ }) numero: string, @Ctx() ctx: ToolContext<Session>) {
    const order = await this.ownOrder(numero, ctx);
    return { status: order.status, eta: order.eta };
  }

  /**
   * Cancels an order that has not shipped yet. Use it only when the customer asks to cancel.
   * The app asks the customer to confirm before it runs (approval: 'writes' in AppModule).
   * @param numero Order number in the format A-1234.
   */
  @Tool({ effect: 'write' })
  async cancel(@Param({ pattern: /^A-\d{4}$/ }) numero: string, @Ctx() ctx: ToolContext<Session>) {
    const order = await this.ownOrder(numero, ctx);
    if (order.status !== 'paid') throw new ToolError(`order ${numero} is ${order.status}; only paid orders can be cancelled`);
    await this.repo.cancel(numero);
    return `order ${numero} cancelled`;
  }

  /** Whose orders are visible is decided by the session (ctx.auth), never by the model's input. */
  private async ownOrder(numero: string, ctx: ToolContext<Session>): Promise<Order> {
    const order = await this.repo.find(numero);
    if (!order || order.userId !== ctx.auth.userId) throw new ToolError(`order ${numero} not found among your orders`);
    return order;
  }
}
