import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { RunStore } from '@toolwright/core';
import { PostgresRunStore, migrate, type SqlClient } from '@toolwright/pg-store';

export interface RunStoreOptions {
  /** Postgres through `pg`'s `Pool` when set (every instance of the app shares it). */
  databaseUrl?: string;
  /** The embedded database's directory otherwise; `<os tmp>/toolwright-examples-runs` by default. */
  dataDir?: string;
}

/**
 * The app's run store and the database under it: opened with the app (tables migrated before the
 * first request), closed with it. A paused run lives in the database, so it survives a restart and
 * any instance can take the decision.
 */
export class AppRunStore implements OnModuleInit, OnApplicationShutdown {
  readonly store: RunStore;
  /** Where runs are kept, for the start-up line. */
  readonly where: string;
  private readonly client: SqlClient;
  private readonly close: () => Promise<void>;

  constructor(options: RunStoreOptions) {
    if (options.databaseUrl) {
      // Loaded only when used, like the embedded database below: each app needs one of the two.
      const { Pool } = require('pg') as typeof import('pg');
      const pool = new Pool({ connectionString: options.databaseUrl });
      // An idle connection the server ends (a restart, a failover, pg_terminate_backend) is
      // reported here and replaced on the next query; unheard, pg's 'error' event ends the process.
      pool.on('error', (error) => new Logger(AppRunStore.name).warn(`An idle Postgres connection failed and was dropped: ${error.message}`));
      this.client = pool;
      this.close = () => pool.end();
      this.where = 'Postgres (DATABASE_URL)';
    } else {
      const { PGlite } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
      const dataDir = options.dataDir ?? join(tmpdir(), 'toolwright-examples-runs');
      mkdirSync(dataDir, { recursive: true });
      const db = new PGlite(dataDir);
      this.client = db;
      this.close = () => db.close();
      this.where = `PGlite in ${dataDir}`;
    }
    this.store = new PostgresRunStore(this.client);
  }

  async onModuleInit(): Promise<void> {
    await migrate(this.client);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}
