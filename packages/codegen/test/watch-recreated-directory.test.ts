import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GenerateResult } from '../src/generate';
import { watchProject, type WatchHandle } from '../src/watch';
import { makeTempProject } from './support/fixtures';

const tools = (name: string) => `import { Param, Tool } from '@toolwright/core';

export class ClockTools {
  /**
   * Tells the time in a time zone.
   * Use it when the user asks what time it is somewhere.
   * It does not set alarms.
   * @param zone IANA time zone, like Europe/Lisbon.
   */
  @Tool({ effect: 'read', name: '${name}' })
  now(@Param() zone: string): string {
    return zone;
  }
}
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, ok: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (ok()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for: ${what}`);
}

// A directory deleted and made again (a branch checkout, rm -rf then mkdir): on Linux its old
// watcher neither fires nor errors, so edits in the new one went unseen.

describe('--watch when a source directory is deleted (or moved away) and made again', () => {
  const project = makeTempProject({ 'src/main.ts': 'export {};\n', 'src/tools/clock.tools.ts': tools('clock_one') });
  const dir = path.join(project.dir, 'src', 'tools');
  const file = path.join(dir, 'clock.tools.ts');
  const generated = path.join(project.dir, 'src', 'tools.generated.ts');
  const runs: GenerateResult[] = [];
  let handle: WatchHandle;
  beforeAll(() => void (handle = watchProject({ project: project.tsconfig }, { onRun: (r) => void runs.push(r), onError: () => undefined })));
  afterAll(() => {
    handle.close();
    project.cleanup();
  });

  it('keeps regenerating for edits in the re-created directory', async () => {
    expect(fs.readFileSync(generated, 'utf8')).toContain("name: 'clock_one'");
    fs.rmSync(dir, { recursive: true });
    await waitFor('a run after the directory was deleted', () => runs.length >= 2);
    await sleep(300);
    fs.mkdirSync(dir);
    fs.writeFileSync(file, tools('clock_two'));
    await waitFor('clock_two in the manifest', () => fs.readFileSync(generated, 'utf8').includes("name: 'clock_two'"));
    await sleep(300);
    // An ordinary edit of the file, as an editor would save it a minute later.
    fs.writeFileSync(file, tools('clock_three'));
    await waitFor('clock_three in the manifest (an edit in the re-created directory)', () => fs.readFileSync(generated, 'utf8').includes("name: 'clock_three'"));
  }, 20_000);
});
