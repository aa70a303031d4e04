import { Ctx, Param, Tool, ToolError, type ToolContext } from '@toolwright/core';
import { OrdersRepository } from './orders.repository';
import type { Session } from './session';

/** The lesson's order tools: a read and a write, kept apart because they carry different risk. */
export class OrdersTools {
  constructor(private readonly repo: OrdersRepository) {}

  /**
   * Consulta o status de um pedido de compra pelo número. Use quando o cliente perguntar onde
   * está o pedido ou quando ele chega. Não altera, cancela nem reembolsa nada. Retorna o status
   * atual e a previsão de entrega, quando existir.
   * @param numero Número do pedido no formato A-1234.
   * @example {"numero": "A-1001"}
   */
  @Tool({ effect: 'read', timeoutMs: 5_000, title: 'Buscar pedido', openWorld: false })
  async buscarPedido(@Param({ pattern: /^A-\d{4}$/ }) numero: string): Promise<{ status: string; previsao: string | null }> {
    const order = await this.repo.find(numero);
    if (!order) throw new ToolError(`pedido ${numero} não encontrado`);
    return { status: order.status, previsao: order.previsao };
  }

  /**
   * Cancela um pedido do cliente conectado e devolve a confirmação. Use só quando o cliente pedir
   * explicitamente o cancelamento de um pedido dele. Não use para consultar status nem para
   * pedidos de outra pessoa: o pedido precisa pertencer ao cliente da sessão. Não reembolsa nada
   * por si só; o reembolso segue o fluxo da loja.
   * @param numero Número do pedido a cancelar, no formato A-1234.
   * @example {"numero": "A-1001"}
   */
  @Tool({
    effect: 'write',
    timeoutMs: 5_000,
    title: 'Cancelar pedido',
    destructive: false,
    idempotent: true,
    openWorld: false,
    // Permission comes from the session, never from the input: the model writes the input.
    async guard(this: OrdersTools, ctx: ToolContext<Session>, input: { numero: string }) {
      const order = await this.repo.find(input.numero);
      return order !== undefined && order.cliente === ctx.auth?.customerId;
    },
  })
  async cancelarPedido(@Param({ pattern: /^A-\d{4}$/ }) numero: string, @Ctx() ctx: ToolContext<Session>) {
    const order = await this.repo.find(numero);
    if (!order) throw new ToolError(`pedido ${numero} não encontrado`);
    if (order.status === 'entregue') throw new ToolError(`pedido ${numero} já foi entregue e não pode ser cancelado`);
    await this.repo.cancel(numero);
    return { numero, status: 'cancelado', canceladoPor: ctx.auth.customerId };
  }
}
