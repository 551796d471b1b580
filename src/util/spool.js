'use strict';
// Records on disk instead of in memory. A Spool appends JSON lines to a temp file and
// reads them back; an ExternalSorter sorts records of any number by their keys in S3's
// order, holding at most `chunk` of them in memory (sorted runs on disk, merged on the way
// out).
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');
const { compareKeys } = require('../keys/order');
const { sortByKey } = require('../keys/sort');

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-spool-'));
}

class Spool {
  constructor(dir = tempDir(), name = 'spool.jsonl') {
    this.dir = dir;
    this.file = path.join(dir, name);
    this.fd = fs.openSync(this.file, 'w');
    this.count = 0;
    this.buf = [];
  }

  push(record) {
    this.buf.push(JSON.stringify(record));
    this.count++;
    if (this.buf.length >= 1000) this._flush();
  }

  _flush() {
    if (this.buf.length) fs.writeSync(this.fd, this.buf.join('\n') + '\n');
    this.buf = [];
  }

  async *read() {
    this._flush();
    const rl = readline.createInterface({ input: fs.createReadStream(this.file, 'utf8'), crlfDelay: Infinity });
    for await (const line of rl) if (line) yield JSON.parse(line);
  }

  close() {
    this._flush();
    if (this.fd !== null) { fs.closeSync(this.fd); this.fd = null; }
  }

  remove() {
    this.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

class ExternalSorter {
  /** @param keyOf record -> its key. this.compare (compareKeys) merges the runs: a caller
   * that knows a cheaper comparison agreeing with it on its keys may set it. */
  constructor(keyOf, { chunk = 100000 } = {}) {
    this.keyOf = keyOf;
    this.compare = compareKeys;
    this.chunk = chunk;
    this.mem = [];
    this.runs = [];
    this.dir = null;
    this.count = 0;
  }

  push(record) {
    this.mem.push(record);
    this.count++;
    if (this.mem.length >= this.chunk) this._spill();
  }

  _sortMem() { sortByKey(this.mem, this.keyOf); }

  _spill() {
    if (!this.dir) this.dir = tempDir();
    this._sortMem();
    const run = new Spool(this.dir, `run-${this.runs.length}.jsonl`);
    for (const r of this.mem) run.push(r);
    run.close();
    this.runs.push(run);
    this.mem = [];
  }

  /** The records sorted, as an array, where none went to disk; else null (use sorted()). */
  sortedInMemory() {
    if (this.runs.length) return null;
    this._sortMem();
    return this.mem;
  }

  // Sorted records; a k-way merge of the runs on disk and the one in memory.
  async *sorted() {
    this._sortMem();
    const sources = this.runs.map((r) => r.read()[Symbol.asyncIterator]());
    const memIter = (async function* (m) { yield* m; })(this.mem)[Symbol.asyncIterator]();
    sources.push(memIter);
    const heads = [];
    for (const it of sources) {
      const n = await it.next();
      if (!n.done) heads.push({ it, v: n.value });
    }
    const { keyOf, compare } = this;
    while (heads.length) {
      let best = 0;
      for (let i = 1; i < heads.length; i++) if (compare(keyOf(heads[i].v), keyOf(heads[best].v)) < 0) best = i;
      const h = heads[best];
      yield h.v;
      const n = await h.it.next();
      if (n.done) heads.splice(best, 1); else h.v = n.value;
    }
  }

  remove() {
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.mem = [];
  }
}

module.exports = { Spool, ExternalSorter };
