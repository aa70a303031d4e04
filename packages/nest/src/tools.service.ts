import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  ToolContainer,
  resumeToolLoop,
  runToolLoop,
  streamResumeToolLoop,
  streamToolLoop,
  type AssistantContentBlock,
  type ExecuteOptions,
  type ResumeToolLoopOptions,
  type ToolLoopResult,
  type ToolStream,
  type ToolReply,
} from '@toolwright/core';
import { discoverToolProviders } from './discover-tool-providers';
import { nestToolLogger } from './nest-tool-logger';
import { TOOLS_MODULE_OPTIONS } from './tools-module.definition';
import type { ToolsModuleOptions, ToolsResumeOptions, ToolsRunOptions } from './tools-module-options';

// The SDK's types, reached through core's API so the app needs no direct dependency for them.
type ToolDefinition = ReturnType<ToolContainer['definitions']>[number];
type ToolResultBlock = ToolReply['content'][number];

/**
 * The application's tools, discovered among its providers: definitions for `messages.create`,
 * `execute` / `reply` for one assistant turn, `run` (or `stream`) for the whole conversation loop,
 * and `resume` (or `streamResume`) for a run that paused for approval.
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
    const { client, model } = this.clientAndModel('run', options);
    const store = options.store ?? this.options.store;
    const secret = options.secret ?? this.options.secret;
    return runToolLoop({ ...this.options.runDefaults, ...options, client, model, tools: this.container, ...(store && { store }), ...(secret && { secret }) });
  }

  /**
   * Continues a run that paused for approval (`resumeToolLoop`) with a person's decisions, over
   * the module's tools, client, model, defaults and store unless the call gives its own. Pass
   * the request's user as `context.auth`, and as `owner` when runs are started with one.
   */
  async resume(options: ToolsResumeOptions<TAuth>): Promise<ToolLoopResult> {
    return resumeToolLoop(this.resumeOptions('resume', options));
  }

  /**
   * `resume()` as a stream (`streamResumeToolLoop`), as `stream()` is `run()`: resolves with the
   * stream once the run is claimed, and rejects with every refusal `resume()` has, before any event.
   */
  async streamResume(options: ToolsResumeOptions<TAuth>): Promise<ToolStream> {
    return streamResumeToolLoop(this.resumeOptions('streamResume', options));
  }

  /**
   * `run()` as a stream (`streamToolLoop`): the same options and defaults, the events as they
   * happen, and the same result in `result`. Throws at once when there is no client or model.
   */
  stream(options: ToolsRunOptions<TAuth>): ToolStream {
    const { client, model } = this.clientAndModel('stream', options);
    const store = options.store ?? this.options.store;
    const secret = options.secret ?? this.options.secret;
    return streamToolLoop({ ...this.options.runDefaults, ...options, client, model, tools: this.container, ...(store && { store }), ...(secret && { secret }) });
  }

  private resumeOptions(method: string, options: ToolsResumeOptions<TAuth>): ResumeToolLoopOptions<TAuth> {
    const { client, model } = this.clientAndModel(method, options);
    const store = options.store ?? this.options.store;
    if (!store) throw new Error(`ToolsService.${method}() has no \`store\`: set it in ToolsModule.forRoot(...) or pass it to ${method}().`);
    const secret = options.secret ?? this.options.secret;
    return { ...this.options.runDefaults, ...options, client, model, store, tools: this.container, ...(secret && { secret }) } as ResumeToolLoopOptions<TAuth>;
  }

  private clientAndModel(method: string, options: Pick<ToolsRunOptions<TAuth>, 'client' | 'model'>) {
    const client = options.client ?? this.options.client;
    const model = options.model ?? this.options.model;
    if (!client || !model) {
      const missing = [!client && '`client`', !model && '`model`'].filter(Boolean).join(' and ');
      throw new Error(`ToolsService.${method}() has no ${missing}: set it in ToolsModule.forRoot(...) or forRootAsync's factory, or pass it to ${method}().`);
    }
    return { client, model };
  }

  private createContainer(): ToolContainer<TAuth> {
    const { manifest, defaults, onEvent, logger, approval } = this.options;
    return new ToolContainer<TAuth>({
      manifest,
      defaults,
      onEvent,
      approval,
      logger: logger ?? nestToolLogger(),
      // A missing or malformed manifest is the container's to explain; discovery would only trip on it.
      providers: Array.isArray(manifest?.entries) ? discoverToolProviders(this.discovery, manifest) : [],
    });
  }
}
