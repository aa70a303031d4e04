import { Module } from '@nestjs/common';
import { OrdersRepository } from './orders.repository.js';
import { OrdersTools } from './orders.tools.js';

// ToolsModule finds OrdersTools among the app's providers: listing it here is all it takes.
@Module({ providers: [OrdersRepository, OrdersTools], exports: [OrdersRepository] })
export class OrdersModule {}
