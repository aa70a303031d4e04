import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { findPostgres, type PostgresInstall } from './binaries';
import { WATCHDOG_SOURCE } from './watchdog';

/** How to reach a server `startPostgres` started; every field `pg`'s `Pool` and `Client` take. */
export interface PostgresConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

export interface PostgresServer {
  readonly connection: PostgresConnection;
  /** `postgres://user:password@127.0.0.1:port/postgres`, for `DATABASE_URL`-style settings. */
  readonly url: string;
  /** Stops the server (a fast shutdown, then an immediate one) and removes its directory. */
  stop(): Promise<void>;
}

/** There is no server to start on this machine; `message` says what to install or set. */
export class PostgresUnavailableError extends Error {
  override readonly name = 'PostgresUnavailableError';
}

const USER = 'toolwright';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Starts a PostgreSQL cluster of its own: `initdb` in a fresh temp directory (as an unprivileged
 * user when this process is root), the server on a free 127.0.0.1 port with a random password
 * (scram), durability off (the tests kill clients, never the server). A watchdog process stops
 * it and removes the directory if this process dies without calling `stop()`.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const install = findPostgres();
  if ('missing' in install) throw new PostgresUnavailableError(install.missing);
  // The unprivileged user must reach the directory: not under root's own TMPDIR.
  const root = mkdtempSync(join(install.runAs ? '/tmp' : tmpdir(), 'toolwright-pg-'));
  try {
    chmodSync(root, 0o700);
    if (install.runAs) chownSync(root, install.runAs.uid, install.runAs.gid);
    const password = randomBytes(18).toString('base64url');
    const passwordFile = join(root, 'password');
    writeFileSync(passwordFile, password, { mode: 0o600 });
    if (install.runAs) chownSync(passwordFile, install.runAs.uid, install.runAs.gid);
    const data = join(root, 'data');
    await runToEnd(install, 'initdb', ['-D', data, '-U', USER, '--auth=scram-sha-256', `--pwfile=${passwordFile}`, '-E', 'UTF8', '--locale=C', '--no-sync'], root);
    rmSync(passwordFile);
    // A free port can be taken between the probe and the bind: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const connection = { host: '127.0.0.1', port, user: USER, password, database: 'postgres' };
      const started = await startServer(install, root, data, connection);
      if (started) return started;
      if (attempt === 5) throw new Error(`PostgreSQL did not start; its log:\n${readLog(root)}`);
    }
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

async function startServer(install: PostgresInstall, root: string, data: string, connection: PostgresConnection): Promise<PostgresServer | undefined> {
  const log = openSync(join(root, 'server.log'), 'a');
  const settings = {
    listen_addresses: '127.0.0.1',
    port: connection.port,
    unix_socket_directories: root,
    max_connections: 200,
    shared_buffers: '32MB',
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
  };
  const args = ['-D', data, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  const server = spawnAs(install, 'postgres', args, root, ['ignore', log, log]);
  closeSync(log);
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const watchdog = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, String(process.pid), String(server.pid), root], { detached: true, stdio: 'ignore' });
  watchdog.unref();
  const killOnExit = () => server.kill('SIGQUIT');
  process.once('exit', killOnExit);

  const forget = () => {
    process.off('exit', killOnExit);
    watchdog.kill();
  };
  const ready = await waitUntilReady(connection, exited);
  if (!ready) {
    forget();
    server.kill('SIGQUIT');
    await exited;
    return undefined;
  }

  let stopped: Promise<void> | undefined;
  return {
    connection,
    url: `postgres://${USER}:${encodeURIComponent(connection.password)}@${connection.host}:${connection.port}/${connection.database}`,
    stop: () => {
      stopped ??= (async () => {
        forget();
        server.kill('SIGINT');
        const timer = setTimeout(() => server.kill('SIGQUIT'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
        rmSync(root, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** Polls with a real login until the server answers; false when the server exited first (its port was taken). */
async function waitUntilReady(connection: PostgresConnection, exited: Promise<void>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!gone) {
    const client = new Client({ ...connection, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL on port ${connection.port} did not accept connections within ${READY_TIMEOUT_MS / 1000} s: ${String(error)}`);
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

function spawnAs(install: PostgresInstall, binary: string, args: string[], cwd: string, stdio: ['ignore', number | 'pipe', number | 'pipe']): ChildProcess {
  // Node sets the uid and gid (and drops root's supplementary groups) before exec.
  return spawn(join(install.bindir, binary), args, { cwd, stdio, env: { ...process.env, LC_ALL: 'C' }, ...(install.runAs && { uid: install.runAs.uid, gid: install.runAs.gid }) });
}

function runToEnd(install: PostgresInstall, binary: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnAs(install, binary, args, cwd, ['ignore', 'pipe', 'pipe']);
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${binary} exited with ${code}:\n${output}`))));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function readLog(root: string): string {
  try {
    return readFileSync(join(root, 'server.log'), 'utf8');
  } catch {
    return '(no log)';
  }
}
