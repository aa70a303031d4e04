import type { ToolManifest, ToolManifestEntry } from './manifest.types';

/** Wraps the generated entries; the one call every generated module makes into toolwright. */
export function defineToolManifest(entries: readonly ToolManifestEntry[]): ToolManifest {
  return { entries: Object.freeze([...entries]) };
}
