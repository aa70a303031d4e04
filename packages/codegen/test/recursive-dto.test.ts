import * as fs from 'node:fs';
import * as path from 'node:path';
import { ToolContainer, type ToolManifest } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';
import { FIXTURES, runFixture } from './support/fixtures';

// Issue 25: a recursive `@Input` DTO is built and validated at every depth, whichever construct
// the recursion goes through (the property itself, an array, a record, a union, another class).

const out = path.join(FIXTURES, 'recursive', 'src', 'tools.generated.ts');

describe('recursive DTOs: instances and validation at every depth', () => {
  let container: ToolContainer;
  let fixture: typeof import('./__fixtures__/recursive/src/recursive.tools');
  let dto: typeof import('./__fixtures__/recursive/src/recursive.dto');
  let result: ReturnType<typeof runFixture>['result'];

  beforeAll(() => {
    result = runFixture('recursive', out).result;
    const manifest = require('./__fixtures__/recursive/src/tools.generated').toolManifest as ToolManifest;
    fixture = require('./__fixtures__/recursive/src/recursive.tools');
    dto = require('./__fixtures__/recursive/src/recursive.dto');
    container = new ToolContainer({ manifest, providers: [new fixture.TreeTools()] });
  });
  afterAll(() => fs.rmSync(out, { force: true }));

  async function call(tool: string, input: Record<string, unknown>) {
    fixture.received.length = 0;
    const [answer] = await container.execute([toolUse('toolu_tree', tool, input)]);
    return { answer, args: fixture.received[0] };
  }

  it('generates without errors or warnings', () => {
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.diagnostics.filter((d) => d.message.includes('ValidateNested'))).toEqual([]);
  });

  it('directly and through an array: every level is a CategoryDto', async () => {
    const input = { name: 'a', parent: { name: 'up', parent: { name: 'top' } }, children: [{ name: 'b', children: [{ name: 'c', children: [{ name: 'd' }] }] }] };
    const { answer, args } = await call('tree_category', input);
    expect(answer.is_error).toBeUndefined();
    const got = args![0] as import('./__fixtures__/recursive/src/recursive.dto').CategoryDto;
    expect(JSON.parse(JSON.stringify(got))).toEqual(input);
    const levels = [got, got.parent, got.parent!.parent, got.children![0], got.children![0].children![0], got.children![0].children![0].children![0]];
    for (const level of levels) expect(level).toBeInstanceOf(dto.CategoryDto);
  });

  it('directly and through an array: a decorator is enforced at the third level, with the path', async () => {
    const { answer, args } = await call('tree_category', { name: 'a', children: [{ name: 'b', children: [{ name: '42' }] }] });
    expect(args).toBeUndefined();
    expect(answer.is_error).toBe(true);
    expect(answer.content).toMatch(/^Invalid input for tree_category:\n- children\[0\]\.children\[0\]\.name: .*letter/);
    const parent = await call('tree_category', { name: 'a', parent: { name: 'b', parent: { name: '7' } } });
    expect(parent.answer.content).toMatch(/- parent\.parent\.name: .*letter/);
  });

  it('an unknown key at any depth is refused by the schema', async () => {
    const { answer } = await call('tree_category', { name: 'a', children: [{ name: 'b', children: [{ name: 'c', colour: 'red' }] }] });
    expect(answer.is_error).toBe(true);
    expect(answer.content).toMatch(/children\[0\]\.children\[0\]/);
  });

  it('through a record: every folder is a FolderDto, every record has no prototype', async () => {
    const input = { name: 'root', folders: { toString: { name: 'x', folders: { constructor: { name: 'y', folders: {} } } } } };
    const { answer, args } = await call('tree_folder', input);
    expect(answer.is_error).toBeUndefined();
    const got = args![0] as import('./__fixtures__/recursive/src/recursive.dto').FolderDto;
    const inner = got.folders!.toString as unknown as import('./__fixtures__/recursive/src/recursive.dto').FolderDto;
    const innermost = inner.folders!.constructor as unknown as import('./__fixtures__/recursive/src/recursive.dto').FolderDto;
    for (const level of [got, inner, innermost]) expect(level).toBeInstanceOf(dto.FolderDto);
    for (const record of [got.folders, inner.folders, innermost.folders]) expect(Object.getPrototypeOf(record)).toBeNull();
    const refused = await call('tree_folder', { name: 'root', folders: { a: { name: 'x', folders: { b: { name: '1' } } } } });
    expect(refused.answer.content).toMatch(/- folders\.a\.folders\.b\.name: .*letter/);
  });

  it('through a union alias and a nullable property: nodes are OutlineDto, lines stay text', async () => {
    const input = { title: 'plan', items: ['intro', { title: 'part', items: [{ title: 'leaf', items: ['x'] }], next: null }], next: { title: 'then', items: [] } };
    const { answer, args } = await call('tree_outline', input);
    expect(answer.is_error).toBeUndefined();
    const got = args![0] as import('./__fixtures__/recursive/src/recursive.dto').OutlineDto;
    expect(JSON.parse(JSON.stringify(got))).toEqual(input);
    const part = got.items[1] as import('./__fixtures__/recursive/src/recursive.dto').OutlineDto;
    for (const level of [got, part, part.items[0], got.next]) expect(level).toBeInstanceOf(dto.OutlineDto);
    expect(got.items[0]).toBe('intro');
    expect(part.next).toBeNull();
    const refused = await call('tree_outline', { title: 'plan', items: [{ title: 'part', items: [{ title: '--', items: [] }] }] });
    expect(refused.answer.content).toMatch(/- items\[0\]\.items\[0\]\.title: .*letter/);
  });

  it('mutually recursive classes and a recursive interface: classes and Dates at every depth', async () => {
    const team = { name: 'core', members: [{ name: 'ana', joined: '2024-01-02T03:04:05Z', leads: [{ name: 'web', members: [{ name: 'bo', joined: '2025-06-07T08:09:10Z' }] }] }] };
    const thread = { text: 'hi', at: '2024-01-01T00:00:00Z', replies: [{ text: 'yo', at: '2024-01-01T00:01:00Z', replies: [{ text: 'ok', at: '2024-01-01T00:02:00Z', replies: [] }] }] };
    const { answer, args } = await call('tree_organise', { team, thread });
    expect(answer.is_error).toBeUndefined();
    const [gotTeam, gotThread] = args as [import('./__fixtures__/recursive/src/recursive.dto').TeamDto, import('./__fixtures__/recursive/src/recursive.dto').Message];
    const lead = gotTeam.members[0].leads![0];
    expect(gotTeam).toBeInstanceOf(dto.TeamDto);
    expect(lead).toBeInstanceOf(dto.TeamDto);
    expect(lead.members[0]).toBeInstanceOf(dto.MemberDto);
    expect(lead.members[0].joined).toEqual(new Date('2025-06-07T08:09:10Z'));
    expect(gotThread.replies[0].replies[0].at).toEqual(new Date('2024-01-01T00:02:00Z'));
    const refused = await call('tree_organise', { team: { ...team, members: [{ ...team.members[0], leads: [{ name: 'web', members: [{ name: '9', joined: '2025-06-07T08:09:10Z' }] }] }] }, thread });
    expect(refused.answer.content).toMatch(/- team\.members\[0\]\.leads\[0\]\.members\[0\]\.name: .*letter/);
  });

  it('a recursive interface with nothing to convert stays as sent', () => {
    const plain = runFixture('catalog').result.tools.find((t) => t.name === 'catalog_type_tour')!.instancePlan;
    expect(JSON.stringify(plain)).not.toContain('Category');
  });
});
