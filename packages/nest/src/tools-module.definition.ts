import { ConfigurableModuleBuilder, type DynamicModule } from '@nestjs/common';
import type { ToolsModuleOptions } from './tools-module-options';
import type { ToolsMcpOptions } from './tools-mcp-options';

/** What `forRoot` / `forRootAsync` accept besides the options: Nest's module-level settings. */
export interface ToolsModuleExtras {
  /** Register `ToolsService` globally, so feature modules need not import `ToolsModule`. Default false. */
  isGlobal: boolean;
  /** Serve the tools over MCP Streamable HTTP at `mcp.path` (needs `@toolwright/mcp` installed). */
  mcp?: ToolsMcpOptions;
}

export const {
  ConfigurableModuleClass: ConfigurableToolsModule,
  MODULE_OPTIONS_TOKEN: TOOLS_MODULE_OPTIONS,
  OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ToolsModuleOptions>({ moduleName: 'Tools' })
  .setClassMethodName('forRoot')
  .setExtras<ToolsModuleExtras>({ isGlobal: false, mcp: undefined }, (definition, extras) => withMcp({ ...definition, global: extras.isGlobal }, extras.mcp))
  .build();

/** The argument of `ToolsModule.forRoot`. */
export type ToolsModuleForRootOptions = typeof OPTIONS_TYPE;
/** The argument of `ToolsModule.forRootAsync`: `useFactory` + `inject`, `useClass` or `useExisting`. */
export type ToolsModuleAsyncOptions = typeof ASYNC_OPTIONS_TYPE;

/** `@toolwright/mcp` is loaded only by apps that ask for MCP, so the others need not install it. */
function withMcp(definition: DynamicModule, mcp: ToolsMcpOptions | undefined): DynamicModule {
  if (!mcp) return definition;
  const { mcpController } = require('./mcp.controller') as typeof import('./mcp.controller');
  return { ...definition, controllers: [...(definition.controllers ?? []), mcpController(mcp)] };
}
