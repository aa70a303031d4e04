#!/usr/bin/env node
// Prints a consumer's lockfile without the integrity of the local toolwright tarballs: they are
// rebuilt from the workspace on every run, so their hash changes with the code, while every
// registry package stays pinned by version and integrity.
'use strict';
const fs = require('node:fs');

const file = process.argv[2];
const text = fs.readFileSync(file, 'utf8');
if (file.endsWith('.json')) {
  const lock = JSON.parse(text);
  for (const entry of Object.values(lock.packages ?? {})) {
    if (typeof entry.resolved === 'string' && entry.resolved.startsWith('file:')) delete entry.integrity;
  }
  process.stdout.write(`${JSON.stringify(lock, null, 2)}\n`);
} else {
  // pnpm-lock.yaml: `resolution: {integrity: ..., tarball: file:...}` -> `resolution: {tarball: file:...}`
  process.stdout.write(text.replace(/resolution: \{integrity: [^,}]+, tarball: (file:[^}]+)\}/g, 'resolution: {tarball: $1}'));
}
