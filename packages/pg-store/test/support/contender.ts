// A process of its own contending for runs (see real-server.test.ts): told a server and run ids,
// it waits for `go`, then claims every run and journals a result for `toolu_a` in each, all at
// once, through a Pool of its own, and reports what it won.
import { Pool } from 'pg';
import { PostgresRunStore } from '@toolwright/pg-store';

interface Task {
  connection: Record<string, unknown>;
  runIds: string[];
}

export interface ContenderReport {
  pid: number;
  claimed: string[];
  refused: Record<string, string>;
  recorded: string[];
  answers: Record<string, unknown>;
}

process.once('message', (task: Task) => {
  const pool = new Pool({ ...task.connection, max: 4 });
  const store = new PostgresRunStore(pool);
  // A connection per slot before the start, so `go` starts every claim at once.
  void Promise.all(Array.from({ length: 4 }, () => pool.query('SELECT 1'))).then(() => {
    process.send!('ready');
    process.once('message', async () => {
      const report: ContenderReport = { pid: process.pid, claimed: [], refused: {}, recorded: [], answers: {} };
      await Promise.all(
        task.runIds.map(async (runId) => {
          try {
            await store.claim(runId);
            report.claimed.push(runId);
          } catch (error) {
            report.refused[runId] = `${(error as Error).name}:${(error as { problem?: string }).problem}`;
          }
          const answer = await store.recordResult(runId, { type: 'tool_result', tool_use_id: 'toolu_a', content: `from ${process.pid}` });
          if (answer.recorded) report.recorded.push(runId);
          report.answers[runId] = answer.result;
        }),
      );
      await pool.end();
      process.send!(report, () => process.exit(0));
    });
  });
});
