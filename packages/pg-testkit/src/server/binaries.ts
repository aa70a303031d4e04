import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where the server binaries are, and as whom to run them. */
export interface PostgresInstall {
  /** Holds `initdb` and `postgres`. */
  bindir: string;
  /** Set when this process is root: initdb and postgres refuse to run as root, so they run as this user. */
  runAs?: { name: string; uid: number; gid: number };
}

const SETUP_HINT = 'run `bash scripts/ci/setup/postgresql.sh` (Debian: apt-get install postgresql) or set TOOLWRIGHT_PG_BINDIR to a directory holding initdb and postgres';

/**
 * Finds a PostgreSQL server install: TOOLWRIGHT_PG_BINDIR, else the newest Debian
 * `/usr/lib/postgresql/<version>/bin`, else `initdb` on PATH. Returns why not when there is none.
 */
export function findPostgres(): PostgresInstall | { missing: string } {
  const bindir = findBindir();
  if (!bindir) return { missing: `no PostgreSQL server binaries (initdb, postgres) found; ${SETUP_HINT}.` };
  if (process.getuid?.() !== 0) return { bindir };
  // initdb refuses root outright; the tests' clusters run as an unprivileged user instead.
  const name = process.env.TOOLWRIGHT_PG_USER ?? 'postgres';
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    if (uid === 0) return { missing: `TOOLWRIGHT_PG_USER=${name} is root; PostgreSQL refuses to run as root: name an unprivileged user.` };
    return { bindir, runAs: { name, uid, gid } };
  } catch {
    return {
      missing: `running as root, and there is no user "${name}" to run PostgreSQL as (it refuses root); the postgresql package creates "postgres", or set TOOLWRIGHT_PG_USER to an unprivileged user.`,
    };
  }
}

function findBindir(): string | undefined {
  const given = process.env.TOOLWRIGHT_PG_BINDIR;
  if (given) return hasServer(given) ? given : undefined;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const dir = join(debian, version, 'bin');
      if (hasServer(dir)) return dir;
    }
  }
  return (process.env.PATH ?? '').split(delimiter).find((dir) => dir !== '' && hasServer(dir));
}

function hasServer(dir: string): boolean {
  return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'));
}
