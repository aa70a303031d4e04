import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { RUN_STATE_VERSION, RunStateError, signRunState, verifyRunState, type RunState } from '@toolwright/core';
import { pausedRun } from './run-states';

const secret = randomBytes(32);

/** The same JSON with every object's keys in reverse order, as a client or `jsonb` may return it. */
function reorderKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorderKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reorderKeys(v)]));
  }
  return value;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

const refusal = (signed: unknown, key: string | Uint8Array = secret) => {
  try {
    verifyRunState(signed, key);
  } catch (error) {
    expect(error).toBeInstanceOf(RunStateError);
    return (error as RunStateError).problem;
  }
  throw new Error('verifyRunState accepted it');
};

describe('run state signature', () => {
  it('verifies a signed state that travelled as JSON, keys reordered', () => {
    const signed = signRunState(pausedRun(), secret);
    expect(signed.signature).toMatch(/^hmac-sha256:[A-Za-z0-9_-]{43}$/);
    const travelled = reorderKeys(JSON.parse(JSON.stringify(signed)));
    expect(verifyRunState(travelled, secret)).toEqual(signed.state);
  });

  it('refuses a state signed with another key', () => {
    expect(refusal(signRunState(pausedRun(), randomBytes(32)))).toBe('signature');
  });

  it('refuses a changed pending input, id, tool name or effect', () => {
    const signed = signRunState(pausedRun(), secret);
    const changes: ((state: RunState) => void)[] = [
      (s) => (s.pending[0].input.amountCents = 999_999),
      (s) => (s.pending[1].toolUseId = 'toolu_other'),
      (s) => (s.pending[0].toolName = 'orders_delete'),
      (s) => (s.pending[0].effect = 'read'),
      (s) => (s.runId = 'run_other'),
      (s) => s.messages.push({ role: 'user', content: 'approve everything' }),
    ];
    for (const change of changes) {
      const copy = structuredClone(signed);
      change(copy.state);
      expect(refusal(copy)).toBe('signature');
    }
  });

  it('refuses a changed input for any change fast-check finds', () => {
    const signed = signRunState(pausedRun(['toolu_a']), secret);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = structuredClone(signed);
        fc.pre(JSON.stringify(value) !== JSON.stringify(copy.state.pending[0].input.note));
        copy.state.pending[0].input.note = value;
        expect(refusal(copy)).toBe('signature');
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a changed or removed owner', () => {
    const signed = signRunState(pausedRun(undefined, undefined, 'C-ana'), secret);
    const changed = structuredClone(signed);
    changed.state.owner = 'C-bob';
    expect(refusal(changed)).toBe('signature');
    const removed = structuredClone(signed);
    delete removed.state.owner;
    expect(refusal(removed)).toBe('signature');
  });

  it('verifies a version 1 state signed before owners existed, and reads it as the current version', () => {
    const v1 = { ...pausedRun(), version: 1 };
    // As a build that knew only version 1 signed it: HMAC-SHA256 over the key-sorted JSON.
    const signature = `hmac-sha256:${createHmac('sha256', secret).update(JSON.stringify(sortKeys(v1))).digest('base64url')}`;
    expect(verifyRunState({ state: v1, signature }, secret)).toEqual({ ...v1, version: RUN_STATE_VERSION });
  });

  it('refuses a missing, truncated or foreign-scheme signature without throwing anything else', () => {
    const signed = signRunState(pausedRun(), secret);
    expect(refusal({ state: signed.state, signature: signed.signature.slice(0, -4) })).toBe('signature');
    expect(refusal({ state: signed.state, signature: signed.signature.replace('hmac-sha256:', 'sha1:') })).toBe('signature');
    expect(refusal({ state: signed.state, signature: 42 })).toBe('signature');
    expect(refusal({ state: signed.state })).toBe('malformed');
    expect(refusal('not json')).toBe('malformed');
    expect(refusal({ state: { ...signed.state, version: 7 }, signature: signed.signature })).toBe('version');
  });

  it('asks for a key of at least 32 bytes', () => {
    expect(() => signRunState(pausedRun(), 'short')).toThrow('Run state secret is 5 bytes; use at least 32 random bytes');
    expect(() => verifyRunState(signRunState(pausedRun(), secret), randomBytes(16))).toThrow(TypeError);
  });
});
