import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GenerateResult } from '../src/generate';
import { ProjectConfigError } from '../src/project/tsconfig';
import { watchProject, type WatchHandle } from '../src/watch';
import { makeTempProject } from './support/fixtures';

const clockTools = (name: string) => `import { Param, Tool } from '@toolwright/core';

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

/** Records every run of a watcher and lets a test wait for the next one. */
class Runs {
  readonly all: Array<{ result: GenerateResult; changed: readonly string[] }> = [];
  readonly errors: unknown[] = [];
  private waiting?: { count: number; resolve: () => void };

  readonly events = {
    onRun: (result: GenerateResult, changed: readonly string[]) => {
      this.all.push({ result, changed });
      if (this.waiting && this.all.length >= this.waiting.count) this.waiting.resolve();
    },
    onError: (error: unknown) => {
      this.errors.push(error);
      this.waiting?.resolve();
    },
  };

  /** Resolves once there have been `count` runs in all. */
  until(count: number, what: string): Promise<void> {
    if (this.all.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const giveUp = setTimeout(() => reject(new Error(`no regeneration after ${what}`)), 30_000);
      this.waiting = {
        count,
        resolve: () => {
          clearTimeout(giveUp);
          resolve();
        },
      };
    });
  }
}

/** What an editor does on an "atomic save": write a temporary file, rename it over the original. */
function atomicSave(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

describe('watch', () => {
  const project = makeTempProject({
    'src/clock.tools.ts': clockTools('clock_now'),
    'src/nested/deeper/readme.md': 'not TypeScript',
  });
  const source = path.join(project.dir, 'src', 'clock.tools.ts');
  const generated = path.join(project.dir, 'src', 'tools.generated.ts');
  const runs = new Runs();
  let handle: WatchHandle;
  beforeAll(() => {
    // A package with many directories, as node_modules always has: none of it is to be watched.
    for (let i = 0; i < 50; i++) fs.mkdirSync(path.join(project.dir, 'node_modules', `pkg-${i}`, 'lib'), { recursive: true });
    handle = watchProject({ project: project.tsconfig }, runs.events);
  });
  afterAll(() => {
    handle.close();
    project.cleanup();
  });

  it('generates once at start, and watches only the source root from the tsconfig', () => {
    expect(runs.all).toHaveLength(1);
    expect(runs.all[0].result.tools.map((t) => t.name)).toEqual(['clock_now']);
    expect(handle.roots).toEqual([path.join(project.dir, 'src')]);
    expect([...handle.directories].sort()).toEqual(['src', 'src/nested', 'src/nested/deeper'].map((d) => path.join(project.dir, d)));
  });

  it('regenerates on a plain write and says which file changed', async () => {
    fs.writeFileSync(source, clockTools('clock_plain'));
    await runs.until(2, 'a plain write');
    expect(runs.all[1].changed).toEqual([source]);
    expect(fs.readFileSync(generated, 'utf8')).toContain("name: 'clock_plain'");
  });

  it('regenerates on an atomic save (temp file renamed over the source), and on every one after it', async () => {
    atomicSave(source, clockTools('clock_atomic_1'));
    await runs.until(3, 'the first atomic save');
    expect(runs.all[2].changed).toEqual([source]);
    expect(fs.readFileSync(generated, 'utf8')).toContain("name: 'clock_atomic_1'");

    atomicSave(source, clockTools('clock_atomic_2'));
    await runs.until(4, 'the second atomic save');
    expect(fs.readFileSync(generated, 'utf8')).toContain("name: 'clock_atomic_2'");
  });

  it('picks up a tools file in a directory created after it started', async () => {
    const added = path.join(project.dir, 'src', 'later', 'alarm.tools.ts');
    fs.mkdirSync(path.dirname(added));
    fs.writeFileSync(added, clockTools('alarm_now').replace('ClockTools', 'AlarmTools'));
    await runs.until(5, 'a new file in a new directory');
    const last = runs.all[runs.all.length - 1];
    expect(last.result.tools.map((t) => t.name)).toEqual(['clock_atomic_2', 'alarm_now']);
    expect(handle.directories).toContain(path.dirname(added));
  });

  it('picks up a tools file added next to the others, and drops its tools once it is deleted', async () => {
    const added = path.join(project.dir, 'src', 'timer.tools.ts');
    const before = runs.all.length;
    fs.writeFileSync(added, clockTools('timer_now').replace('ClockTools', 'TimerTools'));
    await runs.until(before + 1, 'a new file in a watched directory');
    expect(runs.all.at(-1)!.result.tools.map((t) => t.name)).toEqual(['clock_atomic_2', 'alarm_now', 'timer_now']);
    fs.rmSync(added);
    await runs.until(before + 2, 'a deleted file');
    expect(runs.errors).toEqual([]);
    expect(runs.all.at(-1)!.changed).toEqual([added]);
    expect(runs.all.at(-1)!.result.tools.map((t) => t.name)).toEqual(['clock_atomic_2', 'alarm_now']);
  });

  it('a tsconfig broken while watching is reported, and watching goes on once it is fixed', async () => {
    const tsconfig = fs.readFileSync(project.tsconfig, 'utf8');
    fs.writeFileSync(project.tsconfig, tsconfig.replace(/}$/, ''));
    const before = runs.all.length;
    atomicSave(source, clockTools('clock_broken'));
    await runs.until(before + 1, 'an edit with a broken tsconfig');
    expect(runs.errors).toEqual([expect.any(ProjectConfigError)]);
    expect(runs.all).toHaveLength(before);

    fs.writeFileSync(project.tsconfig, tsconfig);
    atomicSave(source, clockTools('clock_fixed'));
    await runs.until(before + 1, 'an edit after the tsconfig was fixed');
    expect(fs.readFileSync(generated, 'utf8')).toContain("name: 'clock_fixed'");
  });

  it('writing the generated module itself does not trigger a run', async () => {
    const before = runs.all.length;
    fs.appendFileSync(generated, '\n');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runs.all).toHaveLength(before);
  });
});

describe('watch with no "include" (every file under the tsconfig directory)', () => {
  const project = makeTempProject({
    'tsconfig.json': JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, experimentalDecorators: true, types: [], lib: ['es2022'], outDir: 'dist' },
    }),
    'src/clock.tools.ts': clockTools('clock_now'),
    'dist/clock.tools.d.ts': 'export {};\n',
    '.git/objects/readme': 'x',
  });
  let handle: WatchHandle;
  beforeAll(() => {
    handle = watchProject({ project: project.tsconfig }, { onRun: () => undefined, onError: () => undefined });
  });
  afterAll(() => {
    handle.close();
    project.cleanup();
  });

  it('watches the project directory and its sources, not node_modules, dot-directories or outDir', () => {
    expect(handle.roots).toEqual([project.dir]);
    expect([...handle.directories].sort()).toEqual([project.dir, path.join(project.dir, 'src')]);
  });
});
