import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { checkRunState, type RunState } from './run-state';
import { RunStateError } from './run-state-error';

/** A run state handed to someone outside the server (a browser, a queue) and its signature. */
export interface SignedRunState {
  state: RunState;
  /** `hmac-sha256:` then the base64url HMAC-SHA256 of the state. */
  signature: string;
}

/** The server's key: at least 32 bytes, kept out of the state and out of the client's reach. */
export type RunStateSecret = string | Uint8Array;

const SCHEME = 'hmac-sha256:';
const MIN_SECRET_BYTES = 32;

/**
 * Signs the whole state: the pending calls' ids, names, inputs and effects (what resume will
 * run), and also the messages and budgets, so a client cannot rewrite what the model saw either.
 */
export function signRunState(state: RunState, secret: RunStateSecret): SignedRunState {
  const checked = checkRunState(state);
  return { state: checked, signature: SCHEME + digest(checked, secret).toString('base64url') };
}

/** The state inside `signed` if its signature verifies; a `RunStateError` otherwise. */
export function verifyRunState(signed: unknown, secret: RunStateSecret): RunState {
  if (typeof signed !== 'object' || signed === null || !('state' in signed) || !('signature' in signed)) {
    throw new RunStateError('malformed', 'Signed run state is not valid: it must be an object with "state" and "signature".');
  }
  const state = checkRunState(signed.state);
  const signature = signed.signature;
  // Over the state as it was signed: a version 1 state is read as the current version.
  const expected = digest(signed.state, secret);
  const given = typeof signature === 'string' && signature.startsWith(SCHEME) ? Buffer.from(signature.slice(SCHEME.length), 'base64url') : undefined;
  // timingSafeEqual needs equal lengths; a length mismatch says nothing about the key.
  if (!given || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new RunStateError(
      'signature',
      `Run state ${JSON.stringify(state.runId)} does not match its signature: it was changed after it was signed, or signed with another key. Refusing to resume it.`,
    );
  }
  return state;
}

function digest(state: unknown, secret: RunStateSecret): Buffer {
  return createHmac('sha256', checkSecret(secret)).update(canonicalJson(state)).digest();
}

/** The key bytes of `secret`, or a `TypeError` naming `what` when it is not a key of 32 bytes or more. */
export function checkSecret(secret: RunStateSecret, what = 'Run state secret'): Uint8Array {
  const key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  if (!(key instanceof Uint8Array)) throw new TypeError(`${what} must be a string or a Uint8Array of at least ${MIN_SECRET_BYTES} random bytes.`);
  if (key.byteLength < MIN_SECRET_BYTES) {
    throw new TypeError(`${what} is ${key.byteLength} bytes; use at least ${MIN_SECRET_BYTES} random bytes (e.g. crypto.randomBytes(32)).`);
  }
  return key;
}
