import { Injectable } from '@nestjs/common';

export interface Order {
  number: string;
  userId: string;
  status: 'paid' | 'shipped' | 'delivered' | 'cancelled';
  eta: string | null;
}

/** Stands for your database of orders. */
@Injectable()
export class OrdersRepository {
  private readonly orders = new Map<string, Order>([
    ['A-1001', { number: 'A-1001', userId: 'u-ana', status: 'shipped', eta: '2026-10-20' }],
    ['A-1002', { number: 'A-1002', userId: 'u-ana', status: 'paid', eta: '2026-10-25' }],
  ]);

  async find(number: string): Promise<Order | undefined> {
    return this.orders.get(number);
  }

  async cancel(number: string): Promise<void> {
    const order = this.orders.get(number);
    if (order) order.status = 'cancelled';
  }
}
