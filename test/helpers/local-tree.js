'use strict';
// Local folders in tests: every file under a folder, and a folder written from a map.
const fs = require('fs');
const path = require('path');

// Every file under dir, relative, with '/' separators (none if dir does not exist).
function filesUnder(dir, rel = '') {
  let entries;
  try { entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true }); } catch (e) { if (e.code === 'ENOENT') return []; throw e; }
  return entries.flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? filesUnder(dir, r) : [r];
  });
}

// What a folder holds: relative name -> contents (a Buffer).
const folderContents = (dir) => new Map(filesUnder(dir).map((f) => [f, fs.readFileSync(path.join(dir, f))]));

// Writes name -> contents (string or Buffer) under dir, making the folders on the way.
function writeFolder(dir, files) {
  for (const [name, body] of files) {
    const file = path.join(dir, ...name.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, body);
  }
}

module.exports = { filesUnder, folderContents, writeFolder };
