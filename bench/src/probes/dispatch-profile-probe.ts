// A CPU profile of `ToolContainer.execute` on valid input, in a process of its own so the other
// paths of the dispatch benchmark leave no code and no garbage in it. Prints the frames with the
// most self time as JSON.
// Usage: node dispatch-profile-probe.js <calls> <top>
import { Session, type Profiler } from 'node:inspector';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolContainer } from '@toolwright/core';
import { OrderLookupTools, orderLookupManifest } from '../fixtures/order-lookup.tools';
import { REPO_DIR } from '../lib/paths';
import { TOOL_CALL_ID } from '../rivals/rival-path';

export interface ProfileFrame {
  function: string;
  /** `file:line`, relative to the repository (node's own modules as node names them). */
  location: string;
  selfPercent: number;
}

const [calls, top] = process.argv.slice(2).map(Number);
const container = new ToolContainer({ manifest: orderLookupManifest, providers: [new OrderLookupTools()] });
const blocks = [{ type: 'tool_use' as const, id: TOOL_CALL_ID, name: 'buscar_pedido', input: { numero: 'A-1001' } }];

const post = <T>(session: Session, method: string, params?: object) =>
  new Promise<T>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))));

function location(frame: Profiler.ProfileNode['callFrame']): string {
  if (!frame.url) return '(native)';
  const file = frame.url.startsWith('file:') ? relative(REPO_DIR, fileURLToPath(frame.url)) : frame.url;
  return `${file.replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')}:${frame.lineNumber + 1}`;
}

/** Self time per function (all of its nodes in the call tree together), largest first. */
function topFrames(profile: Profiler.Profile, count: number): ProfileFrame[] {
  const hits = new Map<number, number>();
  for (const id of profile.samples ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
  const total = profile.samples?.length ?? 0;
  const byFrame = new Map<string, ProfileFrame & { hits: number }>();
  for (const node of profile.nodes) {
    const self = hits.get(node.id) ?? 0;
    if (self === 0) continue;
    const name = node.callFrame.functionName || '(anonymous)';
    const where = location(node.callFrame);
    const key = `${name} ${where}`;
    const frame = byFrame.get(key) ?? { function: name, location: where, selfPercent: 0, hits: 0 };
    frame.hits += self;
    byFrame.set(key, frame);
  }
  return [...byFrame.values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, count)
    .map(({ hits: frameHits, ...frame }) => ({ ...frame, selfPercent: (100 * frameHits) / total }));
}

async function main(): Promise<void> {
  const loop = async (n: number) => {
    for (let i = 0; i < n; i++) await container.execute(blocks);
  };
  await loop(Math.max(1000, calls / 10));
  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 50 });
  await post(session, 'Profiler.start');
  await loop(calls);
  const { profile } = await post<{ profile: Profiler.Profile }>(session, 'Profiler.stop');
  session.disconnect();
  process.stdout.write(`${JSON.stringify(topFrames(profile, top))}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
