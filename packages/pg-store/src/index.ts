export { PostgresRunStore } from './postgres-run-store';
export { migrate, migrations, type Migration } from './migrations';
export type { SqlClient } from './sql-client';
