export { ToolsModule } from './tools.module';
export { ToolsService } from './tools.service';
export {
  TOOLS_MODULE_OPTIONS,
  type ToolsModuleExtras,
  type ToolsModuleForRootOptions,
  type ToolsModuleAsyncOptions,
} from './tools-module.definition';
export type { ToolsModuleOptions, ToolsRunDefaults, ToolsRunOptions, ToolsResumeOptions } from './tools-module-options';
export type { ToolsMcpOptions, ToolsMcpHttpOptions, McpRequest } from './tools-mcp-options';
export { ToolProviderScopeError } from './discover-tool-providers';
export { nestToolLogger } from './nest-tool-logger';
