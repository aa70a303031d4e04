export { OrdersTools } from './orders/orders.tools';
export { OrdersRepository, type Order } from './orders/orders.repository';
export type { Session } from './orders/session';
