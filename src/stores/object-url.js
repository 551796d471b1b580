'use strict';
// An object's address as a user would type it: s3://bucket/key, or a file's path. For the
// lines a run prints per object (cp, mv, sync, rm).
const path = require('path');
const { keyToPath } = require('./local-paths');

function objectUrl(store, key) {
  if (key === null || key === undefined) return null;
  if (store.type !== 'local') return `s3://${store.bucket}/${key}`;
  const m = keyToPath(store.root, key);
  return m.path || path.join(store.root, key); // a key no file can hold keeps its own name
}

module.exports = { objectUrl };
