'use strict';
// ls --delimiter /: one level of a folder, as `aws s3 ls` shows it: the folders directly in it
// (S3's CommonPrefixes) and the objects directly in it. An S3 source is listed with
// ListObjectsV2's delimiter, page after page (1,000 entries a request); each page's folders
// and objects, merged in UTF-8 byte order, must go forward from the last page's, so a store
// that answers out of order stops the listing rather than print it wrong. Each page is given
// as aws-cli prints it: its folders, then its objects. A local folder is read with readdir:
// its folders, then its files.
const fs = require('fs');
const path = require('path');
const { UsageError, FatalError } = require('../errors');
const { resolveLocation } = require('../stores/location');
const { openStore } = require('../stores/open-store');
const { compareKeys } = require('../keys/order');
const { RequestStats } = require('../stats');
const { runSignal } = require('../signal');

// What a one-level view cannot honour: it lists one level, not every key.
const REFUSED = [['allVersions', '--all-versions'], ['asOf', '--as-of'], ['filter', '--filter'], ['pattern', '--pattern'], ['pathFilters', '--include/--exclude'],
  ['withMetadata', '--metadata'], ['withTags', '--tags'], ['unordered', '--unordered'], ['stopAt', '--stop-at'], ['shard', '--shard'], ['shards', '--shards'], ['plan', '--plan']];

/**
 * Entries of one level: {Prefix} for a folder, the listed item for an object; a page's
 * folders, then its objects, each in key order.
 * options: source (or bucket / prefix), delimiter ('/', the only one), startAfter, connection
 * options, signal, stats. The level is the source's path up to its last "/" (a path that does
 * not end in "/" also shows the folder and objects its name starts: `ls s3://b/logs` shows
 * `PRE logs/`), as aws-cli reads it.
 */
async function* levelEntries(options = {}) {
  if (options.delimiter !== '/') throw new UsageError(`--delimiter must be "/" (the one S3 directory buckets allow, and what folders are made of), not ${JSON.stringify(String(options.delimiter))}`);
  for (const [name, flag] of REFUSED) {
    if (options[name] !== undefined && options[name] !== false) throw new UsageError(`--delimiter lists one level of a folder: ${flag} applies to a listing of every key (leave out --delimiter)`);
  }
  const loc = resolveLocation({ location: options.source, bucket: options.bucket, prefix: options.prefix }, 'source');
  if (loc.glob) throw new UsageError(`--delimiter lists one level of a folder, not a wildcard: ${JSON.stringify(loc.text)}`);
  if (loc.type === 'local') { yield* localLevel(loc.path); return; }
  const stats = options.stats || new RequestStats();
  const signal = runSignal(options.signal);
  const { store } = openStore({ ...options, sourceLocation: loc, stats, maxSockets: 4 }, 'source');
  try {
    const prefix = loc.prefix || '';
    let token, last = options.startAfter || null;
    do {
      const page = await store.listPage({ prefix, startAfter: options.startAfter, continuationToken: token, delimiter: '/', maxKeys: 1000, signal });
      stats.listRequests++;
      stats.folderListings++;
      stats.pages++;
      const folders = (page.prefixes || []).map((p) => ({ Prefix: p }));
      for (const e of merge(page.items, folders)) {
        const name = e.Prefix !== undefined ? e.Prefix : e.Key;
        if (!name.startsWith(prefix)) throw new FatalError(`the store answered ${JSON.stringify(name)} to a listing of ${JSON.stringify(prefix)}: not printed`);
        if (last !== null && compareKeys(name, last) <= 0) throw new FatalError(`the store's one-level listing went back from ${JSON.stringify(last)} to ${JSON.stringify(name)}: stopped`);
        last = name;
      }
      // Checked as one run in key order; given as aws-cli prints a page: its folders, then its objects.
      yield* folders;
      yield* page.items;
      token = page.truncated ? page.nextToken : undefined;
      if (page.truncated && !token) throw new FatalError('the store said its listing goes on but gave no continuation token');
    } while (token);
  } finally {
    store.destroy();
  }
}

// A page's objects and folders, each in key order, as one run in key order.
function merge(items, folders) {
  const out = [];
  let i = 0, j = 0;
  while (i < items.length || j < folders.length) {
    if (j >= folders.length || (i < items.length && compareKeys(items[i].Key, folders[j].Prefix) < 0)) out.push(items[i++]);
    else out.push(folders[j++]);
  }
  return out;
}

async function* localLevel(dir) {
  let entries;
  try { entries = await fs.promises.readdir(dir, { withFileTypes: true }); } catch (err) {
    throw new FatalError(`cannot read folder ${dir}: ${err.code}`);
  }
  const rows = [];
  for (const e of entries) {
    if (e.isDirectory()) rows.push({ Prefix: `${e.name}/` });
    else if (e.isFile() || e.isSymbolicLink()) {
      const st = await fs.promises.stat(path.join(dir, e.name)).catch(() => null);
      if (st && st.isFile()) rows.push({ Key: e.name, Size: st.size, LastModified: st.mtime, ETag: null, StorageClass: null });
    }
  }
  rows.sort((a, b) => compareKeys(a.Prefix ?? a.Key, b.Prefix ?? b.Key));
  yield* rows.filter((r) => r.Prefix !== undefined);
  yield* rows.filter((r) => r.Prefix === undefined);
}

/** The level's entries and counts as one result (the library's ls with delimiter). */
async function lsLevel(options = {}) {
  const entries = [];
  for await (const e of levelEntries(options)) entries.push(e);
  return { source: options.source, folders: entries.filter((e) => e.Prefix !== undefined).length, objects: entries.filter((e) => e.Key !== undefined).length, entries };
}

module.exports = { levelEntries, lsLevel, merge };
