import { mkdirSync } from 'node:fs';
import { Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { RunStore } from '@toolwright/core';
import { PostgresRunStore, migrate, type SqlClient } from '@toolwright/pg-store';

/**
 * Where paused runs are kept: Postgres when DATABASE_URL is set (every instance of the app shares
 * it), else PGlite, Postgres embedded in the process, on disk in PGLITE_DIR (default `.data/runs`).
 * A run waiting for approval survives a restart either way.
 */
export class Database {
  readonly runStore: RunStore;

  constructor(
    readonly client: SqlClient,
    readonly where: string,
    readonly close: () => Promise<void>,
  ) {
    this.runStore = new PostgresRunStore(client);
  }

  static async open(): Promise<Database> {
    const database = process.env.DATABASE_URL ? await Database.postgres(process.env.DATABASE_URL) : await Database.embedded();
    // Creates the store's tables, or does nothing when they exist.
    await migrate(database.client);
    return database;
  }

  private static async postgres(connectionString: string): Promise<Database> {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString });
    // An idle connection the server ends (a restart, a failover) is reported here and replaced on
    // the next query; without a listener, pg's 'error' event would end the process.
    pool.on('error', (error) => new Logger(Database.name).warn(`An idle Postgres connection failed and was dropped: ${error.message}`));
    return new Database(pool, 'Postgres (DATABASE_URL)', () => pool.end());
  }

  private static async embedded(): Promise<Database> {
    const { PGlite } = await import('@electric-sql/pglite');
    const dataDir = process.env.PGLITE_DIR ?? '.data/runs';
    mkdirSync(dataDir, { recursive: true });
    const db = new PGlite(dataDir);
    return new Database(db, `PGlite in ${dataDir}`, () => db.close());
  }
}

@Module({
  providers: [{ provide: Database, useFactory: () => Database.open() }],
  exports: [Database],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(private readonly database: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
