import type { MessagesClient, ResumeToolLoopOptions, RunStore, ToolContainerOptions, ToolLogger, ToolLoopOptions } from '@toolwright/core';

/** Loop settings the module applies to every `ToolsService.run()` that does not set them itself. */
export type ToolsRunDefaults = Pick<
  ToolLoopOptions,
  'system' | 'maxTurns' | 'maxTokens' | 'budget' | 'toolChoice' | 'serverTools' | 'params'
>;

/** `ToolsModule.forRoot(...)`: the container's options, without `providers` (they come from DI). */
export interface ToolsModuleOptions extends Omit<ToolContainerOptions, 'providers' | 'logger'> {
  /** Receives unexpected tool exceptions with their stack. Default: Nest's `Logger`, context `ToolsModule`. */
  logger?: ToolLogger;
  /** The Anthropic client `run()` uses, e.g. `new Anthropic()`; a call may pass its own. */
  client?: MessagesClient;
  /** The model `run()` uses; a call may pass its own. */
  model?: ToolLoopOptions['model'];
  /** Defaults for `run()`. A key given to `run()` replaces the module's value as a whole (`budget`, `params` included). */
  runDefaults?: ToolsRunDefaults;
  /**
   * Where `run()`, `resume()` and their streamed forms keep runs and the result journal: approval pauses, and no call
   * runs twice across restarts and instances (`PostgresRunStore` from `@toolwright/pg-store`).
   */
  store?: RunStore;
  /** Signs run states that travel outside the server (`signedState`); see `resumeToolLoop`. */
  secret?: ToolLoopOptions['secret'];
}

/**
 * `ToolsService.run(...)`: `runToolLoop`'s options, with the module's container as `tools`, and
 * the client, model and defaults from the module unless given here. The request's user goes in
 * `context.auth`.
 */
export type ToolsRunOptions<TAuth = unknown> = Omit<ToolLoopOptions<TAuth>, 'tools' | 'client' | 'model'> &
  Partial<Pick<ToolLoopOptions<TAuth>, 'client' | 'model'>>;

/**
 * `ToolsService.resume(...)` and `streamResume(...)`: `resumeToolLoop`'s options, with the
 * module's container, client, model, defaults and store unless given here.
 */
export type ToolsResumeOptions<TAuth = unknown> = DistributiveOmit<ResumeToolLoopOptions<TAuth>, 'tools' | 'client' | 'model' | 'store'> &
  Partial<Pick<ResumeToolLoopOptions<TAuth>, 'client' | 'model' | 'store'>>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
