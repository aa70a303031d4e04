/**
 * The one method the store calls. node-postgres `Pool`/`Client` and PGlite fit as they are.
 * Every statement the store sends stands alone (no BEGIN/COMMIT across calls), so a pool may
 * hand each one to a different connection.
 */
export interface SqlClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}
