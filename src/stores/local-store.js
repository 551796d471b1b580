'use strict';
// A local folder as a store. Keys are paths relative to the root with '/' separators,
// walked in S3's order: within a folder, a subfolder "name" sorts as "name/", so that
// "a-b" (0x2D) comes before everything under "a/" (0x2F), as S3 would list them.
const fs = require('fs');
const path = require('path');
const { compareKeys } = require('../keys/order');
const { inRange, normalizeRange } = require('../keys/range');
const { FatalError, UsageError } = require('../errors');
const { TEMP_PREFIX, localPath } = require('./local-paths');

class LocalStore {
  constructor({ root, stats }) {
    this.type = 'local';
    this.root = root;
    this.stats = stats;
    // One sorted walk answers every page in turn; ranges listed in parallel would each
    // walk the tree again, so a listing asks for pages one after another.
    this.listsInOneWalk = true;
    this.walks = new Map(); // continuation token -> the walk it continues
    this.walkSeq = 0;
  }

  // A target folder is created when missing; a source folder must exist. A file where the
  // folder should be is a wrong path (usage), not a failure of the run.
  async open({ create = false } = {}) {
    if (create) {
      try { await fs.promises.mkdir(this.root, { recursive: true }); } catch (err) {
        if (err.code === 'EEXIST') throw new UsageError(`${this.root} is a file, not a folder`);
        throw new FatalError(`cannot create folder ${this.root}: ${err.code || err.message}`);
      }
    }
    let st;
    try { st = await fs.promises.stat(this.root); } catch (err) {
      throw new FatalError(`cannot read folder ${this.root}: ${err.code === 'ENOENT' ? 'no such folder' : err.code}`);
    }
    if (!st.isDirectory()) throw new UsageError(`${this.root} is a file, not a folder`);
  }

  // A page of up to maxKeys items in key order, as S3Store#listPage answers, with stopAt
  // as S3 has not. A continuation token resumes the walk that gave it, where it stopped.
  async listPage({ prefix = '', startAfter, stopAt, continuationToken, maxKeys = 1000, signal } = {}) {
    let walk;
    if (continuationToken !== undefined) {
      walk = this.walks.get(continuationToken);
      if (!walk) throw new FatalError(`folder listing of ${this.root}: unknown continuation`);
      this.walks.delete(continuationToken);
    } else {
      const range = normalizeRange({ prefix, startAfter, stopAt });
      walk = { it: this._walk(this.root, '', range, signal), next: null };
    }
    const items = [];
    let r = walk.next || await walk.it.next();
    while (!r.done && items.length < maxKeys) {
      items.push(r.value);
      r = await walk.it.next();
    }
    if (r.done) return { items, truncated: false };
    walk.next = r;
    const token = String(++this.walkSeq);
    this.walks.set(token, walk);
    return { items, truncated: true, nextToken: token };
  }

  async *_walk(dir, keyPrefix, range, signal) {
    if (signal && signal.aborted) throw signal.reason || new Error('aborted');
    let entries;
    try { entries = await fs.promises.readdir(dir, { withFileTypes: true }); } catch (err) {
      if (keyPrefix === '') throw new FatalError(`cannot read folder ${dir}: ${err.code}`);
      this._warn(`skipping ${dir}: ${err.code}`);
      return;
    }
    const rows = [];
    for (const e of entries) {
      if (e.name.startsWith(TEMP_PREFIX)) continue; // a download in progress, or left by a crash
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        // Follow links to files; links to folders are skipped (they can loop).
        try { const st = await fs.promises.stat(path.join(dir, e.name)); isFile = st.isFile(); isDir = false; } catch { continue; }
      }
      if (!isDir && !isFile) continue;
      const key = keyPrefix + e.name + (isDir ? '/' : '');
      rows.push({ key, isDir, name: e.name });
    }
    rows.sort((a, b) => compareKeys(a.key, b.key));
    const { prefix, stop } = range;
    for (const r of rows) {
      // Prune folders that cannot hold keys of the range.
      if (stop !== null && compareKeys(r.key, stop) > 0 && !stop.startsWith(r.key)) return;
      if (prefix && !r.key.startsWith(prefix) && !prefix.startsWith(r.key)) continue;
      const full = path.join(dir, r.name);
      if (r.isDir) {
        if (range.after && compareKeys(r.key + '\u{10FFFF}', range.after) <= 0) continue;
        yield* this._walk(full, r.key, range, signal);
      } else if (inRange(range, r.key)) {
        let st;
        try { st = await fs.promises.stat(full); } catch { continue; }
        yield { Key: r.key, Size: st.size, LastModified: st.mtime, ETag: null, StorageClass: null };
      }
    }
  }

  _warn(msg) {
    if (this.onWarning) this.onWarning(msg);
  }

  // The file as it is now, as a listed item; null when it is gone.
  async stat(key) {
    let st;
    try { st = await fs.promises.stat(localPath(this.root, key)); } catch (err) {
      if (err.code === 'ENOENT') return null;
      throw err;
    }
    return { Key: key, Size: st.size, LastModified: st.mtime, ETag: null, StorageClass: null };
  }

  async readStream(item) {
    return fs.createReadStream(localPath(this.root, item.Key));
  }

  // A small file's bytes in one synchronous read: for files of a few KiB, a stream's
  // open, reads and close through the thread pool cost several times the read itself.
  readSmall(item) {
    return fs.readFileSync(localPath(this.root, item.Key));
  }

  // Deletes the files; those it could not delete, with the reason (one already gone is deleted).
  async deleteKeys(keys) {
    const failed = [];
    for (const key of keys) {
      try { await fs.promises.unlink(localPath(this.root, key)); } catch (err) {
        if (err.code !== 'ENOENT') failed.push({ key, reason: err.code || err.message });
      }
    }
    return failed;
  }

  destroy() {
    for (const walk of this.walks.values()) walk.it.return();
    this.walks.clear();
  }
}

module.exports = { LocalStore };
