import { findPostgres, startPostgres, type PostgresServer } from '@toolwright/pg-testkit';

/**
 * A `describe` whose tests run against a PostgreSQL server of their own, started before them
 * and stopped after. Where this machine has no server binaries, the block is skipped with the
 * reason in its name, except in CI (`CI=true`): there a missing server fails every test in it,
 * so a broken setup can never pass as a green run.
 */
export function describeOnPostgres(name: string, body: (server: () => PostgresServer) => void): void {
  const install = findPostgres();
  if ('missing' in install && process.env.CI !== 'true') {
    describe.skip(`${name} (skipped: ${install.missing})`, () => body(() => undefined as never));
    return;
  }
  describe(name, () => {
    let server: PostgresServer | undefined;
    beforeAll(async () => {
      server = await startPostgres();
    }, 120_000);
    body(() => {
      if (!server) throw new Error('the PostgreSQL server did not start (see the beforeAll failure above).');
      return server;
    });
    // Declared after the body's hooks so it runs after them: pools end before the server stops.
    afterAll(async () => {
      await server?.stop();
    }, 30_000);
  });
}

/**
 * A pool for these tests: an idle connection the server ends at the file's teardown (57P01,
 * "terminating connection due to administrator command") is expected then; any other idle
 * connection error still fails the run.
 */
export function testPool<T extends { on(event: 'error', listener: (error: Error & { code?: string }) => void): unknown }>(pool: T): T {
  pool.on('error', (error) => {
    if (error.code !== '57P01') throw error;
  });
  return pool;
}
