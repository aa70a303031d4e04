import { Param, Tool, ToolContainer, defineToolManifest } from '@toolwright/core';
import { toolUse } from '@toolwright/core/testing';

// A tool without a guard or `@Ctx` is answered by its compiled plan (no context, no race), with
// its results written by the tool's own JSON writer: the same answers as the general path.

const CAP = 40;
const TIMEOUT_MS = 30;

/** What the next call returns, and whether it returns it now or through a promise. */
let next: { value: unknown; via: 'value' | 'promise' | 'never' } = { value: 'done', via: 'value' };

class PlainTools {
  @Tool({ name: 'plain', effect: 'read', maxResultChars: CAP, timeoutMs: TIMEOUT_MS })
  plain(@Param() key: string): unknown {
    void key;
    if (next.via === 'never') return new Promise(() => undefined);
    return next.via === 'promise' ? Promise.resolve(next.value) : next.value;
  }
}

class PlainInput {
  key!: string;
}

const manifest = defineToolManifest([
  {
    provider: PlainTools,
    method: 'plain',
    definition: {
      name: 'plain',
      description: 'Returns what the test set. It touches nothing real; it exists for the direct path tests.',
      input_schema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'], additionalProperties: false },
    },
    effect: 'read',
    inputClass: PlainInput,
    parameters: [{ kind: 'param', property: 'key' }],
  },
]);

async function call(container: ToolContainer, value: unknown, via: 'value' | 'promise' | 'never' = 'value') {
  next = { value, via };
  const [result] = await container.execute([toolUse('t', 'plain', { key: 'k' })]);
  return result;
}

/** An object whose JSON text is `length` characters long, of `fill` (one UTF-16 unit each). */
function objectOfLength(length: number, fill = 'a'): { s: string } {
  return { s: fill.repeat(length - '{"s":""}'.length) };
}

describe('a tool answered by its plan', () => {
  it('keeps a result exactly at maxResultChars whole, and cuts one a character longer', async () => {
    const container = new ToolContainer({ manifest, providers: [new PlainTools()] });
    for (const via of ['value', 'promise'] as const) {
      expect((await call(container, objectOfLength(CAP), via)).content).toBe(JSON.stringify(objectOfLength(CAP)));
      expect((await call(container, objectOfLength(CAP + 1), via)).content).toBe(
        `${JSON.stringify(objectOfLength(CAP + 1)).slice(0, CAP)}\n[truncated: 1 more characters not shown]`,
      );
    }
  });

  it('counts the cap in characters, not bytes: a result of two-byte characters at the cap is whole', async () => {
    const container = new ToolContainer({ manifest, providers: [new PlainTools()] });
    const value = objectOfLength(CAP, 'ã');
    expect(Buffer.byteLength(JSON.stringify(value))).toBeGreaterThan(CAP);
    expect((await call(container, value)).content).toBe(JSON.stringify(value));
  });

  it('answers a tool that returns a value on one call and a promise on the next, each with its own result', async () => {
    const container = new ToolContainer({ manifest, providers: [new PlainTools()] });
    const answers = [];
    for (const [value, via] of [
      [{ status: 'a', n: 1 }, 'value'],
      [{ status: 'b', n: 2 }, 'promise'],
      ['text', 'value'],
      [{ status: 'c', n: -0 }, 'promise'],
      [{ status: 'd\n"', n: NaN }, 'value'],
    ] as const) {
      answers.push((await call(container, value, via)).content);
    }
    expect(answers).toEqual(['{"status":"a","n":1}', '{"status":"b","n":2}', 'text', '{"status":"c","n":0}', '{"status":"d\\n\\"","n":null}']);
  });

  it('times out a call whose promise never settles, and the next call is answered normally', async () => {
    const container = new ToolContainer({ manifest, providers: [new PlainTools()] });
    expect(await call(container, undefined, 'never')).toEqual({
      type: 'tool_result',
      tool_use_id: 't',
      is_error: true,
      content: `Timed out after ${TIMEOUT_MS} ms.`,
    });
    expect((await call(container, { status: 'ok' }, 'promise')).content).toBe('{"status":"ok"}');
  });

  it('writes what the tool returned when it returned it: a later change to the object does not reach the model', async () => {
    const container = new ToolContainer({ manifest, providers: [new PlainTools()] });
    const value = { status: 'first' };
    const answered = call(container, value, 'value');
    value.status = 'changed';
    expect((await answered).content).toBe('{"status":"first"}');
  });
});
