'use strict';
// ls --delimiter /: one level of a folder, as `aws s3 ls` shows it: the folders directly in it
// (S3's CommonPrefixes) and the objects directly in it, in key order. An S3 source is listed
// with ListObjectsV2's delimiter, 1,000 entries a page; a level wider than a page is cut into
// ranges listed at once (levelRanges). Each page's folders and objects, merged in UTF-8 byte
// order, must go forward and stay in their range, so a store that answers out of order stops
// the listing rather than print it wrong. A local folder is read with readdir.
const fs = require('fs');
const path = require('path');
const { UsageError, FatalError } = require('../errors');
const { resolveLocation } = require('../stores/location');
const { openStore } = require('../stores/open-store');
const { compareKeys } = require('../keys/order');
const { RequestStats } = require('../stats');
const { runSignal } = require('../signal');
const pLimit = require('p-limit');
const { KeyShape } = require('../plan/key-shape');
const { levelCuts } = require('../plan/level-cuts');
const { option } = require('../options');
const T = require('../plan/tuning').values;
const { ExternalSorter } = require('../util/spool');
const { itemRow, rowItem } = require('../stores/chunks');
const { directoryPage } = require('../list/directory-lister');

// What a one-level view cannot honour: it lists one level, not every key.
const REFUSED = [['allVersions', '--all-versions'], ['asOf', '--as-of'], ['filter', '--filter'], ['pattern', '--pattern'], ['pathFilters', '--include/--exclude'],
  ['withMetadata', '--metadata'], ['withTags', '--tags'], ['unordered', '--unordered'], ['stopAt', '--stop-at'], ['shard', '--shard'], ['shards', '--shards'], ['plan', '--plan']];

/**
 * Entries of one level, in key order: {Prefix} for a folder, the listed item for an object.
 * options: source (or bucket / prefix), delimiter ('/', the only one), startAfter,
 * listConcurrency, connection options (or store: a store of the caller's), signal, stats.
 * The level is the source's path up to its last "/" (a path that does not end in "/" also
 * shows the folder and objects its name starts: `ls s3://b/logs` shows `PRE logs/`), as
 * aws-cli reads it.
 */
async function* levelEntries(options = {}) {
  if (options.delimiter !== '/') throw new UsageError(`--delimiter must be "/" (the one S3 directory buckets allow, and what folders are made of), not ${JSON.stringify(String(options.delimiter))}`);
  for (const [name, flag] of REFUSED) {
    if (options[name] !== undefined && options[name] !== false) throw new UsageError(`--delimiter lists one level of a folder: ${flag} applies to a listing of every key (leave out --delimiter)`);
  }
  const loc = options.store ? { type: 's3', prefix: options.prefix || '' } : resolveLocation({ location: options.source, bucket: options.bucket, prefix: options.prefix }, 'source');
  if (loc.glob) throw new UsageError(`--delimiter lists one level of a folder, not a wildcard: ${JSON.stringify(loc.text)}`);
  if (loc.type === 'local') { yield* localLevel(loc.path); return; }
  const stats = options.stats || new RequestStats();
  const signal = runSignal(options.signal);
  const concurrency = option(options, 'listConcurrency');
  const store = options.store || openStore({ ...options, sourceLocation: loc, stats, maxSockets: concurrency }, 'source').store;
  try {
    const prefix = loc.prefix || '';
    if (store.directoryBucket) { yield* directoryLevel(store, prefix, options.startAfter || null, { signal, stats, concurrency }); return; }
    const read = pageReader(store, prefix, { signal, stats });
    // The first page, as a sequential listing's: most levels end there.
    const first = await read(options.startAfter || null, null, undefined);
    yield* first.entries;
    if (!first.token) return;
    const last = first.entries[first.entries.length - 1];
    yield* levelRanges(read, prefix, nameOf(last), first, concurrency);
  } finally {
    if (!options.store) store.destroy();
  }
}

const nameOf = (e) => (e.Prefix !== undefined ? e.Prefix : e.Key);

// A level of a directory bucket, whose pages come in no key order and which takes no
// StartAfter: its directory (the path up to its last "/") walked with continuation tokens,
// each page checked (list/directory-lister.js directoryPage), the entries that begin with
// the path (and come after startAfter) sorted, on disk past a size, each name once. S3 names
// there directories that exist only for a multipart upload in progress: each folder is
// asked for one key (up to `concurrency` of them at once, ahead of the output), and one that
// holds none is not shown.
async function* directoryLevel(store, prefix, startAfter, { signal, stats, concurrency }) {
  const dir = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  const sorter = new ExternalSorter((r) => r[0], { chunk: T.DIR_SORT_KEYS });
  const holdsKeys = (folder) => directoryPage(store, folder, undefined, { walk: false, maxKeys: 1, signal, stats }).then((p) => p.chunk.length > 0);
  try {
    const keep = (name) => name.startsWith(prefix) && (startAfter === null || compareKeys(name, startAfter) > 0);
    let token;
    do {
      const page = await directoryPage(store, dir, token, { signal, stats });
      for (const it of page.chunk.toItems()) if (keep(it.Key)) sorter.push([it.Key, itemRow(it)]);
      for (const p of page.prefixes) if (keep(p)) sorter.push([p, null]);
      token = page.next;
    } while (token);
    let prev = null;
    const ahead = []; // entries in order, each folder's check begun
    let checking = 0; // folders among them
    const next = async () => {
      const e = ahead.shift();
      if (e.holds === null) return rowItem(e.row);
      checking--;
      return (await e.holds) ? { Prefix: e.name } : null;
    };
    for await (const [name, row] of sorter.sorted()) {
      if (name === prev) continue; // a folder named on two pages
      prev = name;
      const holds = row === null ? holdsKeys(name) : null;
      if (holds) { holds.catch(() => {}); checking++; } // awaited in turn below
      ahead.push({ name, row, holds });
      // Out goes what is ready; a folder's check is awaited when `concurrency` are under way
      // or DIR_AHEAD_KEYS entries wait behind it.
      while (ahead.length && (ahead[0].holds === null || checking > concurrency || ahead.length > T.DIR_AHEAD_KEYS)) {
        const e = await next();
        if (e) yield e;
      }
    }
    while (ahead.length) {
      const e = await next();
      if (e) yield e;
    }
  } finally {
    sorter.remove();
  }
}

// One delimiter page of the range (lo, hi] (hi null: to the level's end), from its start or
// a continuation token: its entries in key order, checked (inside the level, after lo and
// the previous page, before hi: what lies past hi ends the range), and the token to go on.
function pageReader(store, prefix, { signal, stats }) {
  return async (lo, hi, token, prev = lo) => {
    const page = await store.listPage({ prefix, startAfter: token === undefined ? lo || undefined : undefined, continuationToken: token, delimiter: '/', maxKeys: 1000, signal });
    stats.listRequests++;
    stats.folderListings++;
    stats.pages++;
    const entries = [];
    let last = prev, past = false;
    for (const e of merge(page.items, (page.prefixes || []).map((p) => ({ Prefix: p })))) {
      const name = nameOf(e);
      if (!name.startsWith(prefix)) throw new FatalError(`the store answered ${JSON.stringify(name)} to a listing of ${JSON.stringify(prefix)}: not printed`);
      // A folder named by StartAfter comes back once more (its keys sort after it): not twice.
      if (lo !== null && name === lo && e.Prefix !== undefined && token === undefined) continue;
      if (last !== null && compareKeys(name, last) <= 0) throw new FatalError(`the store's one-level listing went back from ${JSON.stringify(last)} to ${JSON.stringify(name)}: stopped`);
      if (hi !== null && compareKeys(name, hi) > 0) { past = true; break; }
      entries.push(e);
      last = name;
    }
    if (page.truncated && !page.nextToken) throw new FatalError('the store said its listing goes on but gave no continuation token');
    return { entries, token: page.truncated && !past ? page.nextToken : undefined, last };
  };
}

// The rest of a level after its first page, in ranges listed at once, each page by page with
// the delimiter, given in key order. A range whose first page comes back full has proved
// dense: the rest of it is cut into LEVEL_CUTS ranges, while fewer than --list-concurrency
// ranges are open, so a level of a few thousand entries costs a few requests more than a
// sequential walk, and one of millions keeps the request slots busy. Each range ahead of the
// one being given out holds LEVEL_WAIT_PAGES pages at most, and at most --list-concurrency
// ranges send requests, so memory stays bounded.
async function* levelRanges(read, prefix, after, first, concurrency) {
  const shape = new KeyShape();
  const learn = (entries) => { for (const e of entries) shape.learn(nameOf(e), e.Prefix !== undefined); };
  learn(first.entries);
  const limit = pLimit(Math.max(1, concurrency));
  const node = (lo, hi) => ({ lo, hi, pages: [], done: false, error: null, wake: null, next: null });
  const head = node(after, null);
  let current = head, open = 1, waiting = 0, stopped = false, rooms = [];
  const started = [];
  const notify = (r) => { if (r.wake) { const w = r.wake; r.wake = null; w(); } };
  const freeRoom = () => { const w = rooms; rooms = []; for (const f of w) f(); };
  // Ranges after r, from the rest of r past its full page (first .. last): its own listing
  // goes on up to the first cut.
  const cut = (r, firstName, last) => {
    // Ranges that wait for room in the window send nothing: they do not count.
    const busy = open - waiting;
    if (busy >= concurrency) return;
    const cuts = levelCuts(shape, prefix, firstName, last, r.hi, Math.min(T.LEVEL_CUTS, concurrency - busy + 1));
    if (!cuts.length) return;
    const tail = r.next;
    let prev = r;
    cuts.forEach((c, i) => {
      const n = node(c, i + 1 < cuts.length ? cuts[i + 1] : r.hi);
      prev.next = n;
      prev = n;
      open++;
      started.push(run(n, undefined, n.lo, true));
    });
    prev.next = tail;
    r.hi = cuts[0];
  };
  // One range, page by page: from its lower bound (StartAfter), or, for the first, on from
  // the first page's continuation token. A range ahead of the one being given out waits
  // while it holds LEVEL_WAIT_PAGES pages; the one being given out never waits.
  async function run(r, token, prev, fresh) {
    try {
      for (;;) {
        while (r.pages.length >= T.LEVEL_WAIT_PAGES && r !== current && !stopped) {
          waiting++;
          await new Promise((res) => rooms.push(res));
          waiting--;
        }
        if (stopped) break;
        const page = await limit(() => read(r.lo, r.hi, token, prev));
        learn(page.entries);
        r.pages.push(page.entries);
        notify(r);
        if (!page.token) break;
        if (fresh && page.entries.length) cut(r, nameOf(page.entries[0]), page.last);
        fresh = false;
        prev = page.last;
        token = page.token;
      }
    } catch (err) { r.error = err; }
    r.done = true;
    open--;
    notify(r);
  }
  // The first page came back full: the level is wide, so it is cut at once.
  cut(head, nameOf(first.entries[0]), after);
  started.push(run(head, first.token, after, true));
  try {
    for (let r = head; r; r = r.next) {
      current = r;
      freeRoom(); // the range now given out may read on
      for (;;) {
        if (r.pages.length) {
          const entries = r.pages.shift();
          freeRoom();
          yield* entries;
          continue;
        }
        if (r.error) throw r.error;
        if (r.done) break;
        await new Promise((res) => { r.wake = res; });
      }
    }
  } finally {
    stopped = true;
    freeRoom();
    await Promise.allSettled(started);
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
  yield* rows;
}

/** The level's entries and counts as one result (the library's ls with delimiter). */
async function lsLevel(options = {}) {
  const entries = [];
  for await (const e of levelEntries(options)) entries.push(e);
  return { source: options.source, folders: entries.filter((e) => e.Prefix !== undefined).length, objects: entries.filter((e) => e.Key !== undefined).length, entries };
}

module.exports = { levelEntries, lsLevel, merge };
