// One cold start: import toolwright's dependencies, then a generated manifest, then construct a
// ToolContainer with one instance of each provider. Prints the phases as JSON.
// Usage: node --expose-gc startup-probe.js <compiled tools.generated.js>
import { performance } from 'node:perf_hooks';
import { reportMaxRss } from '../lib/child';

const [generatedModule] = process.argv.slice(2);

/** Heap in use once garbage is collected, so phases are compared by what they keep. */
function liveHeap(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

const heapAtStart = liveHeap();
let started = performance.now();
// What any toolwright app loads anyway: the baseline the manifest's cost is read against.
require('reflect-metadata');
require('class-validator');
require('class-transformer');
const core: typeof import('@toolwright/core') = require('@toolwright/core');
const dependenciesMs = performance.now() - started;
const heapAfterDependencies = liveHeap();

started = performance.now();
const { toolManifest } = require(generatedModule) as { toolManifest: import('@toolwright/core').ToolManifest };
const manifestMs = performance.now() - started;
const heapAfterManifest = liveHeap();

started = performance.now();
const providers = [...new Set(toolManifest.entries.map((entry) => entry.provider))].map((Provider) => new (Provider as new () => object)());
const container = new core.ToolContainer({ manifest: toolManifest, providers });
const constructMs = performance.now() - started;
const heapAfterContainer = liveHeap();

process.stdout.write(
  JSON.stringify({
    tools: container.names.length,
    dependenciesMs,
    manifestMs,
    constructMs,
    dependenciesHeap: heapAfterDependencies - heapAtStart,
    manifestHeap: heapAfterManifest - heapAfterDependencies,
    containerHeap: heapAfterContainer - heapAfterManifest,
  }) + '\n',
);
reportMaxRss();
