#!/usr/bin/env node
// Points a project's @toolwright/* dependencies at the packed tarballs in <tarballs>, so a project
// written by create-toolwright (which depends on the published versions) installs the code being
// tested, the way the consumers under consumers/ do with their file: paths.
//
//   node scripts/use-tarballs.js <project dir> <tarballs dir>
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [projectDir, tarballsDir] = process.argv.slice(2).map((p) => p && path.resolve(p));
if (!projectDir || !tarballsDir) {
  console.error('usage: node scripts/use-tarballs.js <project dir> <tarballs dir>');
  process.exit(2);
}
const file = path.join(projectDir, 'package.json');
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
const tarballs = fs.readdirSync(tarballsDir);
for (const field of ['dependencies', 'devDependencies']) {
  for (const name of Object.keys(pkg[field] ?? {})) {
    if (!name.startsWith('@toolwright/')) continue;
    const prefix = `toolwright-${name.slice('@toolwright/'.length)}-`;
    const tarball = tarballs.find((t) => t.startsWith(prefix) && /^\d/.test(t.slice(prefix.length)) && t.endsWith('.tgz'));
    if (!tarball) {
      console.error(`use-tarballs: no ${prefix}<version>.tgz in ${tarballsDir} for ${name}`);
      process.exit(1);
    }
    pkg[field][name] = `file:${path.join(tarballsDir, tarball)}`;
  }
}
fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
