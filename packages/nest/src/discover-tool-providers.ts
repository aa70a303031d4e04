import type { DiscoveryService } from '@nestjs/core';
import type { ToolManifest } from '@toolwright/core';

/** A tool provider Nest cannot hand over as one long-lived instance. */
export class ToolProviderScopeError extends Error {
  override name = 'ToolProviderScopeError';
}

/**
 * The singleton instances of the application, every module included, for the `ToolContainer`.
 *
 * All of them are candidates, not only the manifest's classes: the container reads the `@Tool`
 * decorators of each instance itself, so a tools class that was added without running
 * `tools-codegen` fails start-up with the codegen message instead of being silently left out.
 * Instances without `@Tool` methods are ignored by the container.
 */
export function discoverToolProviders(discovery: DiscoveryService, manifest: ToolManifest): object[] {
  const instances = new Set<object>();
  for (const wrapper of discovery.getProviders()) {
    const singleton = !wrapper.isTransient && wrapper.isDependencyTreeStatic();
    if (!singleton) {
      rejectScopedToolProvider(wrapper.metatype, wrapper.host?.name, manifest);
      continue;
    }
    // A Set: an alias (`useExisting`) yields the same instance under a second token.
    if (isClassInstance(wrapper.instance)) instances.add(wrapper.instance);
  }
  return [...instances];
}

/**
 * One container is built at start-up, so its tools must be singletons; a request-scoped or
 * transient tools class would silently run on a detached instance.
 */
function rejectScopedToolProvider(metatype: Function | null, moduleName: string | undefined, manifest: ToolManifest): void {
  if (typeof metatype !== 'function') return;
  const entry = manifest.entries.find((e) => metatype === e.provider || metatype.prototype instanceof e.provider);
  if (!entry) return;
  throw new ToolProviderScopeError(
    `${metatype.name}${moduleName ? ` (in ${moduleName})` : ''} holds tools but is request-scoped, transient, ` +
      'or depends on a request-scoped provider. ToolsModule builds its tools once, at start-up, from singleton ' +
      'providers: make it a singleton, and read who is calling from ctx.auth (pass the request\'s user as `auth`).',
  );
}

/** Objects made by a class: what the container can read decorators from. */
function isClassInstance(value: unknown): value is object {
  return typeof value === 'object' && value !== null && typeof value.constructor === 'function' && value.constructor !== Object;
}
