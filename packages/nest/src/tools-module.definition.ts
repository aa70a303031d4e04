import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { ToolsModuleOptions } from './tools-module-options';

/** What `forRoot` / `forRootAsync` accept besides the options: Nest's module-level settings. */
export interface ToolsModuleExtras {
  /** Register `ToolsService` globally, so feature modules need not import `ToolsModule`. Default false. */
  isGlobal: boolean;
}

export const {
  ConfigurableModuleClass: ConfigurableToolsModule,
  MODULE_OPTIONS_TOKEN: TOOLS_MODULE_OPTIONS,
  OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ToolsModuleOptions>({ moduleName: 'Tools' })
  .setClassMethodName('forRoot')
  .setExtras<ToolsModuleExtras>({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
  .build();

/** The argument of `ToolsModule.forRoot`. */
export type ToolsModuleForRootOptions = typeof OPTIONS_TYPE;
/** The argument of `ToolsModule.forRootAsync`: `useFactory` + `inject`, `useClass` or `useExisting`. */
export type ToolsModuleAsyncOptions = typeof ASYNC_OPTIONS_TYPE;
