/**
 * Run as `node -e WATCHDOG_SOURCE <owner pid> <server pid> <directory>`, detached: once the
 * process that started the server is gone (a test runner killed with SIGKILL, a crash), it stops
 * the server immediately and removes its directory, so no cluster outlives its tests. Source
 * text, not a module, so it runs the same from the TypeScript sources and from dist/.
 */
export const WATCHDOG_SOURCE = `
const { rmSync } = require('node:fs');
const [owner, server, directory] = process.argv.slice(1);
const alive = (pid) => { try { process.kill(Number(pid), 0); return true; } catch { return false; } };
const timer = setInterval(() => {
  if (!alive(server)) {
    // A server that died with its owner (the owner's exit handler stops it) leaves its directory to us.
    if (!alive(owner)) rmSync(directory, { recursive: true, force: true });
    process.exit(0);
  }
  if (alive(owner)) return;
  clearInterval(timer);
  try { process.kill(Number(server), 'SIGQUIT'); } catch {}
  const gone = setInterval(() => {
    if (alive(server)) return;
    clearInterval(gone);
    rmSync(directory, { recursive: true, force: true });
    process.exit(0);
  }, 100);
}, 500);
`;
