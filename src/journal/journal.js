'use strict';
// The run journal of cp and sync: append-only JSON lines, flushed at least every second,
// so a run that stops for any reason can resume where it was. It records a watermark (every
// key up to it is finished), the keys finished beyond it since the last line, objects that
// failed (so a resumed run still reports them), multipart UploadIds before their first part,
// and for sync the target keys to delete. A completed run deletes its journal. Its 'start'
// record holds the run's token, which names its temporary files in a local target, and a
// 'tmpdir' record names each folder it made one in (stores/temp-files.js).
// Journals hold keys and counts only: never credentials, and nothing is ever evaluated from them.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { StringDecoder } = require('string_decoder');
const { compareKeys } = require('../keys/order');
const { SafetyError } = require('../errors');
const { newRunToken, isRunToken } = require('../stores/temp-files');
const { isDefault } = require('../options');

const VERSION = 1;
const open = new Set(); // journals to flush on an abrupt exit

function stateDir(env = process.env) {
  const base = env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(base, 's3blitz');
}

// Options that change what a run does, in a stable order; functions by their source text.
// Defaults are left out: the library fills them in (options.js), a caller need not give them.
function normalizeCommand(command, options, ignore) {
  const out = {};
  for (const k of Object.keys(options).sort()) {
    const v = options[k];
    if (ignore.has(k) || v === undefined || v === null || isDefault(k, v)) continue;
    if (typeof v === 'function') out[k] = `fn:${v.toString()}`;
    else if (typeof v === 'object' && !(v instanceof RegExp) && !Array.isArray(v)) continue; // signals, stores, credentials
    else out[k] = v instanceof RegExp ? `re:${v}` : v;
  }
  return JSON.stringify({ command, options: out });
}

const RUNTIME = new Set(['quiet', 'verbose', 'json', 'debug', 'apiExample', 'journal', 'resume', 'signal', 'stopSignal', 'progress', 'log',
  'onObject', 'onUpload', 'onProgress', 'onDelete', 'onPair', 'onConcurrency', 'stats', 'credentials', 'toCredentials', 'show']);

function journalPath(command, options) {
  if (typeof options.journal === 'string') return path.resolve(options.journal);
  const hash = crypto.createHash('sha256').update(normalizeCommand(command, options, RUNTIME)).digest('hex').slice(0, 20);
  return path.join(stateDir(), `${command}-${hash}.jsonl`);
}

class Journal {
  constructor(file, command) {
    this.file = file;
    this.command = command;
    this.fd = null;
    this.lines = [];
    this.timer = null;
    // Restored state
    this.upTo = null; // watermark key (of lane 0)
    this.upToSource = null;
    this.lanes = null; // the lanes' boundaries, when the run was listed in lanes (plan/lanes.js)
    this.laneMarks = new Map(); // lane -> {upTo, upToSource}, lanes 1 and up
    this.done = new Set(); // keys finished beyond the watermark
    this.failures = [];
    this.totals = null;
    this.uploads = new Map(); // uploadId -> {bucket, key}
    this.pendingCreates = new Map(); // key -> bucket: a CreateMultipartUpload was sent, maybe unanswered
    this.doomed = [];
    this.notes = new Set();
    this.resumed = false;
    this.token = null; // names this run's temp files (.s3blitz-tmp-<token>-*)
    this.tempDirs = new Map(); // folder -> true once journaled (a promise while being written)
    // {token, dirs}: the temp files an earlier run of this command may have left, for the
    // caller to remove (stores/temp-files.js); null: none known.
    this.staleTemp = null;
  }

  // Opens the journal; with resume, reads what an earlier run of the same command left,
  // unless it is older than maxAgeMs (then says so through log and starts afresh). Takes the
  // command's lock first: a second run of the same command at the same time is refused.
  static open(command, options, { maxAgeMs = Infinity, log } = {}) {
    const j = new Journal(journalPath(command, options), command);
    fs.mkdirSync(path.dirname(j.file), { recursive: true, mode: 0o700 });
    j.lock = takeLock(`${j.file}.lock`, command, log);
    try {
      let st = null;
      try { st = fs.statSync(j.file); } catch { /* none */ }
      // A journal not resumed still tells where its run's temp files are: they go too.
      if (st && options.resume !== false && Date.now() - st.mtimeMs > maxAgeMs) {
        if (log) log(`not resuming ${j.file}: the run it belongs to stopped ${new Date(st.mtimeMs).toISOString()}, longer ago than --resume-max-age; starting afresh`);
        j.staleTemp = readTempRecords(j.file);
        fs.rmSync(j.file);
      } else if (st && options.resume !== false) j._load();
      else if (st) {
        j.staleTemp = readTempRecords(j.file);
        fs.rmSync(j.file);
      }
      j.fd = fs.openSync(j.file, 'a', 0o600);
    } catch (err) {
      releaseLock(j.lock);
      throw err;
    }
    if (!j.resumed) {
      j.token = newRunToken();
      j._write({ t: 'start', version: VERSION, command, token: j.token });
    } else if (j.token) {
      // The run taken over: its temp files (named with the token this run goes on with).
      j.staleTemp = { token: j.token, dirs: [...j.tempDirs.keys()] };
    } else {
      // A journal from before tokens: its temp files cannot be told from others'.
      j.token = newRunToken();
      j._write({ t: 'token', token: j.token });
    }
    if (j.staleTemp && !j.staleTemp.dirs.length) j.staleTemp = null;
    j.timer = setInterval(() => j.flush(), 1000);
    j.timer.unref();
    open.add(j);
    return j;
  }

  _load() {
    const text = fs.readFileSync(this.file, 'utf8');
    for (const line of text.split('\n')) {
      if (!line) continue;
      let r;
      try { r = JSON.parse(line); } catch { continue; } // a line cut short by a kill
      if (r.t === 'mark') {
        if (r.upTo !== null && r.upTo !== undefined) {
          const upToSource = r.upToSource === undefined ? r.upTo : r.upToSource;
          if (r.lane) this.laneMarks.set(r.lane, { upTo: r.upTo, upToSource });
          else { this.upTo = r.upTo; this.upToSource = upToSource; }
        }
        for (const k of r.done || []) this.done.add(k);
        if (r.totals) this.totals = r.totals;
      } else if (r.t === 'failed') this.failures.push(r.f);
      else if (r.t === 'creating') this.pendingCreates.set(r.key, r.bucket);
      else if (r.t === 'settled') this.pendingCreates.delete(r.key);
      else if (r.t === 'upload') this.uploads.set(r.id, { bucket: r.bucket, key: r.key });
      else if (r.t === 'closed') this.uploads.delete(r.id);
      else if (r.t === 'doomed') this.doomed.push({ key: r.key, size: r.size, etag: r.etag });
      else if (r.t === 'note') this.notes.add(r.note);
      else if (r.t === 'lanes') this.lanes = r.bounds;
      else if ((r.t === 'start' || r.t === 'token') && isRunToken(r.token)) this.token = r.token;
      else if (r.t === 'tmpdir' && typeof r.dir === 'string') this.tempDirs.set(r.dir, true);
    }
    // Keys at or under their lane's final watermark are covered by it.
    for (const k of this.done) {
      const lane = this.lanes ? this.lanes.filter((b) => compareKeys(k, b) > 0).length : 0;
      const upTo = lane ? (this.laneMarks.get(lane) || {}).upTo : this.upTo;
      if (upTo !== null && upTo !== undefined && compareKeys(k, upTo) <= 0) this.done.delete(k);
    }
    this.resumed = true;
  }

  _write(record) {
    this.lines.push(JSON.stringify(record));
  }

  mark(upTo, upToSource, newlyDone, totals, lane = 0) {
    this._write(lane ? { t: 'mark', lane, upTo, upToSource, done: newlyDone, totals } : { t: 'mark', upTo, upToSource, done: newlyDone, totals });
  }

  // The boundaries of the run's lanes, so a resumed run lists the same ranges.
  setLanes(bounds) {
    this.lanes = bounds;
    this._write({ t: 'lanes', bounds });
  }

  // Where lane i's watermark stands (source key), or null.
  laneUpTo(i) {
    if (!i) return this.upToSource;
    const m = this.laneMarks.get(i);
    return m ? m.upToSource : null;
  }

  failed(f) { this._write({ t: 'failed', f }); }

  doom(key, size, etag) { this._write({ t: 'doomed', key, size, etag }); }

  note(note) {
    if (this.notes.has(note)) return;
    this.notes.add(note);
    this._write({ t: 'note', note });
  }

  // Written through with the next batch: a kill before that still leaves the key's
  // 'creating' record, from which a resumed run finds and aborts the upload.
  upload(bucket, key, id) {
    this._write({ t: 'upload', bucket, key, id });
    this._writeThrough().catch(() => {}); // a failed write fails the awaited 'creating' ones
  }

  closed(id) { this._write({ t: 'closed', id }); }

  // Written through before CreateMultipartUpload (the caller awaits it): if the answer is
  // lost to a kill, the resumed run still knows which key may have an upload open.
  creating(bucket, key) {
    this._write({ t: 'creating', bucket, key });
    return this._writeThrough();
  }

  // One write for every record asked to be written through at the same moment: hundreds of
  // copies starting together share a system call instead of making one each.
  _writeThrough() {
    this.through ??= new Promise((resolve, reject) => setImmediate(() => {
      this.through = null;
      try { this.flush(); resolve(); } catch (err) { reject(err); }
    }));
    return this.through;
  }

  settled(key) { this._write({ t: 'settled', key }); }

  // Written through before the run's first temp file in dir (the caller awaits it): a kill
  // with temp files open leaves their folders in the journal. One record per folder.
  tempDir(dir) {
    const known = this.tempDirs.get(dir);
    if (known === true) return Promise.resolve();
    if (known) return known;
    this._write({ t: 'tmpdir', dir });
    const p = this._writeThrough().then(
      () => { this.tempDirs.set(dir, true); },
      (err) => { this.tempDirs.delete(dir); throw err; });
    this.tempDirs.set(dir, p);
    return p;
  }

  flush() {
    if (this.fd === null) return;
    if (this.beforeFlush) this.beforeFlush();
    if (!this.lines.length) return;
    const text = this.lines.join('\n') + '\n';
    this.lines = [];
    fs.writeSync(this.fd, text);
  }

  close() {
    this.flush();
    clearInterval(this.timer);
    if (this.fd !== null) { fs.closeSync(this.fd); this.fd = null; }
    open.delete(this);
    releaseLock(this.lock);
    this.lock = null;
  }

  remove() {
    this.close();
    fs.rmSync(this.file, { force: true });
  }

  static flushAll() {
    for (const j of open) { try { j.flush(); } catch { /* exiting anyway */ } }
  }
}

// The token and temp folders of a journal that is not resumed, read line by line (its marks
// can be large and are skipped unparsed): {token, dirs}, or null without a token.
function readTempRecords(file) {
  let token = null;
  const dirs = new Set();
  const take = (line) => {
    if (!/^\{"t":"(start|token|tmpdir)"/.test(line)) return;
    let r;
    try { r = JSON.parse(line); } catch { return; } // cut short by a kill
    if (r.t === 'tmpdir' && typeof r.dir === 'string') dirs.add(r.dir);
    else if (r.t !== 'tmpdir' && isRunToken(r.token)) token = r.token;
  };
  let fd;
  try { fd = fs.openSync(file, 'r'); } catch { return null; }
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    const decoder = new StringDecoder('utf8'); // a character cut by a chunk's end stays whole
    let rest = '';
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0;) {
      const lines = (rest + decoder.write(buf.subarray(0, n))).split('\n');
      rest = lines.pop();
      for (const line of lines) take(line);
      if (rest.length > (1 << 20) && !/^\{"t":"(start|token|tmpdir)"/.test(rest)) rest = rest.slice(0, 32); // a long mark line: only its start matters
    }
    take(rest);
  } finally { fs.closeSync(fd); }
  return token ? { token, dirs: [...dirs] } : null;
}

// The lock of a command: a file beside its journal naming the process that runs it. One left
// by a process that is gone (a crash, a kill) is taken over. A process on another host (a
// state folder on NFS or EFS) cannot be asked whether it runs, so a holder touches its lock
// every HEARTBEAT_MS, and one from another host untouched for STALE_MS is taken as gone.
const held = new Map(); // lock files this process holds -> their heartbeat timers
const HEARTBEAT_MS = 30000;
const STALE_MS = Number(process.env.S3BLITZ_LOCK_STALE_MS) || 10 * 60 * 1000;

function takeLock(file, command, log) {
  const me = { pid: process.pid, host: os.hostname(), started: new Date().toISOString(), command };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx', mode: 0o600 });
      const beat = setInterval(() => { try { const now = new Date(); fs.utimesSync(file, now, now); } catch { /* removed: released */ } }, HEARTBEAT_MS);
      beat.unref();
      held.set(file, beat);
      return file;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let other = null;
    try { other = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { /* being written, or cut short */ }
    if (!other) {
      // Unreadable: being written this instant, or cut short by a crash long ago.
      let age = Infinity;
      try { age = Date.now() - fs.statSync(file).mtimeMs; } catch { continue; }
      if (age < 10000) throw new SafetyError(`another run of the same ${command} is starting (its lock ${file} is being written): wait for it or stop it`);
    } else if (isRunning(other, file)) {
      throw new SafetyError(`another run of the same ${command} is in progress (pid ${other.pid}${other.host !== me.host ? ` on ${other.host}` : ''}, started ${other.started}): wait for it or stop it; its lock is ${file}`);
    } else if (log) log(`taking over the lock of an earlier run that is gone (pid ${other.pid}${other.host !== me.host ? ` on ${other.host}, its lock untouched for ${Math.round(STALE_MS / 60000)} minutes` : ''}, started ${other.started})`);
    fs.rmSync(file, { force: true });
  }
  throw new SafetyError(`cannot take the lock ${file}: another run keeps taking it`);
}

function isRunning({ pid, host }, file) {
  if (host !== os.hostname()) {
    let touched = Date.now();
    try { touched = fs.statSync(file).mtimeMs; } catch { /* gone this instant: as if running, the next attempt sees */ }
    return Date.now() - touched < STALE_MS;
  }
  if (pid === process.pid) return held.has(file);
  try { process.kill(pid, 0); return true; } catch (err) { return err.code === 'EPERM'; }
}

function releaseLock(file) {
  if (!file || !held.has(file)) return;
  clearInterval(held.get(file));
  held.delete(file);
  fs.rmSync(file, { force: true });
}

module.exports = { Journal, journalPath, stateDir, normalizeCommand, RUNTIME };
