import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ConfigurableToolsModule } from './tools-module.definition';
import { ToolsService } from './tools.service';

/**
 * Turns the application's providers with `@Tool` methods into one `ToolContainer`, exposed as
 * `ToolsService`. `ToolsModule.forRoot({ manifest })`, or `forRootAsync({ useFactory, inject })`
 * when the options come from other providers.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [ToolsService],
  exports: [ToolsService],
})
export class ToolsModule extends ConfigurableToolsModule {}
