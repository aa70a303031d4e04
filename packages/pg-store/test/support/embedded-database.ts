import { PGlite } from '@electric-sql/pglite';
import { migrate } from '@toolwright/pg-store';

/**
 * A migrated in-memory PGlite database for the tests of one file, made before them and closed
 * after; the getter reads it once made. Creating one takes seconds on a loaded machine.
 */
export function embeddedDatabase(): () => PGlite {
  let db: PGlite | undefined;
  beforeAll(async () => {
    db = new PGlite();
    await migrate(db);
  }, 180_000);
  afterAll(async () => {
    await db?.close();
  });
  return () => db!;
}
