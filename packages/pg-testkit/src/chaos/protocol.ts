import type { PostgresConnection } from '../server/postgres-server';

/**
 * Where a worker stops and asks the driver whether to go on, so a SIGKILL lands exactly there:
 * - `mid-claim`: the claim's UPDATE is sent, its answer not read;
 * - `mid-write`: the side effect is written in its transaction, not committed;
 * - `after-write`: the side effect is committed, the result not journaled (the documented window);
 * - `mid-journal`: the journal INSERT is sent, its answer not read.
 */
export const KILL_POINTS = ['mid-claim', 'mid-write', 'after-write', 'mid-journal'] as const;
export type KillPoint = (typeof KILL_POINTS)[number];

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'point'; point: KillPoint; toolUseId?: string }
  | { type: 'journaled'; toolUseId: string }
  | { type: 'want-key' }
  | { type: 'started'; key: number }
  | { type: 'refused'; reason: string };

export type DriverMessage = { type: 'go' } | { type: 'key'; key: number | null } | { type: 'stop' };

/** What a worker is started with (JSON in the CHAOS_WORKER environment variable). */
export interface WorkerConfig {
  connection: PostgresConnection;
  modelUrl: string;
  claimLeaseMs: number;
}

/** The chaos test's own tables: each write's side effect, one row per time it ran. */
export const CHAOS_SCHEMA = `CREATE TABLE chaos_effects (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tool_use_id text NOT NULL,
  run_key integer NOT NULL,
  step integer NOT NULL,
  pid integer NOT NULL,
  at timestamptz NOT NULL DEFAULT clock_timestamp()
)`;

/** The run's prompt names its key; the scripted model reads it back from the conversation. */
export const promptFor = (key: number) => `chaos run ${key}`;
export function keyOf(content: unknown): number {
  // The loop may send the prompt as text blocks (to carry a cache breakpoint).
  const text = Array.isArray(content) ? content.map((block: { text?: unknown }) => String(block.text ?? '')).join('') : String(content);
  return Number(/^chaos run (\d+)$/.exec(text)?.[1] ?? NaN);
}

/** Which calls the person denies: step 2 of every fifth run. */
export const denied = (input: { key?: number; step?: number }) => input.step === 2 && Number(input.key) % 5 === 0;
