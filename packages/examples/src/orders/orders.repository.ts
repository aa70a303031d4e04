export interface Order {
  status: string;
  previsao: string | null;
  /** Who placed it; never shown to the model, used for permission checks. */
  cliente: string;
}

/** The lesson's two orders, kept in memory; a real app would use a database. */
export class OrdersRepository {
  private readonly orders = new Map<string, Order>([
    ['A-1001', { status: 'enviado', previsao: '2026-10-20', cliente: 'C-ana' }],
    ['A-1002', { status: 'entregue', previsao: null, cliente: 'C-bruno' }],
  ]);

  /** Every cancellation carried out, in order: what the approval example counts. */
  readonly cancellations: string[] = [];

  /** Set to make every lookup fail like a dropped connection (the lesson's exercise 3). */
  networkDown = false;

  /** Simulated I/O latency, so the demo's timeline shows reads overlapping. */
  constructor(private readonly latencyMs = 0) {}

  async find(numero: string): Promise<Order | undefined> {
    await this.io();
    if (this.networkDown) throw new Error('ECONNRESET: connection to orders-db:5432 reset by peer');
    return this.orders.get(numero);
  }

  async cancel(numero: string): Promise<void> {
    await this.io();
    const order = this.orders.get(numero);
    if (order) order.status = 'cancelado';
    this.cancellations.push(numero);
  }

  private io(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.latencyMs));
  }
}
