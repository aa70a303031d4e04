export { startPostgres, PostgresUnavailableError, type PostgresConnection, type PostgresServer } from './server/postgres-server';
export { findPostgres, type PostgresInstall } from './server/binaries';
