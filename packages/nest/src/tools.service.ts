import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  ToolContainer,
  runToolLoop,
  streamToolLoop,
  type AssistantContentBlock,
  type ExecuteOptions,
  type ToolLoopOptions,
  type ToolLoopResult,
  type ToolStream,
  type ToolReply,
} from '@toolwright/core';
import { discoverToolProviders } from './discover-tool-providers';
import { nestToolLogger } from './nest-tool-logger';
import { TOOLS_MODULE_OPTIONS } from './tools-module.definition';
import type { ToolsModuleOptions, ToolsRunOptions } from './tools-module-options';

// The SDK's types, reached through core's API so the app needs no direct dependency for them.
type ToolDefinition = ReturnType<ToolContainer['definitions']>[number];
type ToolResultBlock = ToolReply['content'][number];

/**
 * The application's tools, discovered among its providers: definitions for `messages.create`,
 * `execute` / `reply` for one assistant turn, and `run` (or `stream`) for the whole conversation loop.
 */
@Injectable()
export class ToolsService<TAuth = unknown> implements OnModuleInit {
  private built?: ToolContainer<TAuth>;

  constructor(
    @Inject(TOOLS_MODULE_OPTIONS) private readonly options: ToolsModuleOptions,
    private readonly discovery: DiscoveryService,
  ) {}

  /** Builds the container while the app starts, so a stale manifest fails `app.init()`. */
  onModuleInit(): void {
    this.built ??= this.createContainer();
  }

  /**
   * The module's one `ToolContainer`, e.g. for `asRunnableTools()`. Built on first use when that
   * comes before this module's `onModuleInit` (another module's hook may run first): every
   * singleton exists by then.
   */
  get container(): ToolContainer<TAuth> {
    return (this.built ??= this.createContainer());
  }

  /** Definitions for `client.messages.create({ tools })`. */
  definitions(): ToolDefinition[] {
    return this.container.definitions();
  }

  /** One `tool_result` per `tool_use` block, same ids and order. Pass the request's user as `auth`. */
  execute(content: readonly AssistantContentBlock[], options?: ExecuteOptions<TAuth>): Promise<ToolResultBlock[]> {
    return this.container.execute(content, options);
  }

  /** `execute`, wrapped as the user message that must follow the assistant turn. */
  reply(content: readonly AssistantContentBlock[], options?: ExecuteOptions<TAuth>): Promise<ToolReply> {
    return this.container.reply(content, options);
  }

  /**
   * The conversation loop (`runToolLoop`) over this module's tools, with the module's client,
   * model and `runDefaults` unless the call gives its own. Pass the request's user as
   * `context.auth`.
   */
  async run(options: ToolsRunOptions<TAuth>): Promise<ToolLoopResult> {
    return runToolLoop(this.loopOptions(options, 'run'));
  }

  /**
   * `run()` as a stream (`streamToolLoop`): the same options and defaults, the events as they
   * happen, and the same result in `result`. Throws at once when there is no client or model.
   */
  stream(options: ToolsRunOptions<TAuth>): ToolStream {
    return streamToolLoop(this.loopOptions(options, 'stream'));
  }

  private loopOptions(options: ToolsRunOptions<TAuth>, method: 'run' | 'stream'): ToolLoopOptions<TAuth> {
    const client = options.client ?? this.options.client;
    const model = options.model ?? this.options.model;
    if (!client || !model) {
      const missing = [!client && '`client`', !model && '`model`'].filter(Boolean).join(' and ');
      throw new Error(`ToolsService.${method}() has no ${missing}: set it in ToolsModule.forRoot(...) or forRootAsync's factory, or pass it to ${method}().`);
    }
    return { ...this.options.runDefaults, ...options, client, model, tools: this.container };
  }

  private createContainer(): ToolContainer<TAuth> {
    const { manifest, defaults, onEvent, logger } = this.options;
    return new ToolContainer<TAuth>({
      manifest,
      defaults,
      onEvent,
      logger: logger ?? nestToolLogger(),
      providers: discoverToolProviders(this.discovery, manifest),
    });
  }
}
