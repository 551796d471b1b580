'use strict';
// The main thread's side of the request thread: a worker that sends the lean path's signed
// requests (list pages, copies, heads, small objects) and parses list pages. At full speed
// the main thread saturates one core with HTTP work, socket writes and parsing; this moves
// them to the second core. Pages come back as columns (list-parser), other answers as text
// or as {status, head, body}.
const path = require('path');
const { Worker } = require('worker_threads');
const { FallBack } = require('./http-pool');
const { pageFromColumns, PageError } = require('./list-parser');
const { FileChanged, takeBody, giveBack, lendable } = require('./file-io');

// A request as one flat array of strings and numbers, the cheapest shape to clone across
// threads: [id, op, secure, hostname, port, method, path, body or null, file or null, name,
// value, ...], file a spec of file-io.js ({read} or {write}). A bare number sent to the
// thread is the id of a request to cancel.
function flatRequest(id, op, { secure, options: o, body, file }) {
  const m = [id, op, secure ? 1 : 0, o.hostname, o.port, o.method, o.path, body || null, file || null];
  for (const name in o.headers) m.push(name, o.headers[name]);
  return m;
}

function unflatRequest(m) {
  const headers = {};
  for (let i = 9; i < m.length; i += 2) headers[m[i]] = m[i + 1];
  const secure = m[2] === 1;
  const request = { secure, options: { hostname: m[3], port: m[4], method: m[5], path: m[6], headers } };
  if (m[7]) request.body = Buffer.from(m[7].buffer, m[7].byteOffset, m[7].byteLength);
  if (m[8]) request.file = m[8];
  if (m[1] === 'full') request.full = true;
  return { id: m[0], op: m[1], request };
}

// A buffer that owns its whole memory can move to the other thread instead of being copied;
// one that shares Node's pool or a socket's chunk is copied.
function movable(buf) {
  return buf && buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength ? [buf.buffer] : undefined;
}

class RequestThread {
  constructor(maxSockets) {
    this.pending = new Map(); // id -> {resolve, reject, signal}
    this.nextId = 1;
    this.failed = null;
    this.pages = 0; // list pages answered here
    // A young generation of 16 MB: the thread's own objects are short-lived, and a smaller
    // one costs more scavenges than it saves memory.
    this.worker = new Worker(path.join(__dirname, 'request-worker.js'), {
      workerData: { maxSockets }, resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
    // Held only while requests are out, so an idle thread never keeps the process alive.
    this.worker.unref();
    // Messages go both ways in batches (see post): one structured clone per event-loop turn
    // instead of one per request, which at thousands of requests a second is most of the
    // main thread's work for a small request such as a HEAD.
    this.outbox = [];
    this.moving = []; // ArrayBuffers the outbox's messages move
    this.flushing = false;
    this.worker.on('message', (m) => {
      if (m && m.batch) for (const x of m.batch) this._answer(x);
      else this._answer(m);
    });
    this.worker.on('error', (err) => this._fail(err));
    this.worker.on('exit', (code) => this._fail(new Error(`the request thread exited (${code})`)));
  }

  get usable() { return this.failed === null; }

  /** request: {secure, options} as HttpPool#fetch takes it. Resolves to a page (list-parser). */
  list(request, signal) { return this._post('list', request, signal); }

  /** The same request, answered with its body as text. */
  send(request, signal) { return this._post('send', request, signal); }

  /** Any request: {status, head, body, bytes} for a 2xx. A request body is copied, not moved:
   * the caller keeps it for the SDK path should this one fall back. A request with a file
   * spec (file-io.js) has its body read from, or its answer written to, that file there. */
  full(request, signal) { return this._post('full', request, signal); }

  _post(op, request, signal) {
    if (this.failed) return Promise.reject(new FallBack(this.failed.message));
    if (signal && signal.aborted) return Promise.reject(signal.reason);
    const id = this.nextId++;
    // A part read from a file goes into a buffer lent from the main thread's pool, moved
    // there and back without a copy (file-io.js takeBody).
    const read = request.file && request.file.read;
    const into = read && read.length !== undefined && lendable(read.length) ? takeBody(read.length) : null;
    if (into) request = { ...request, file: { read: { ...read, into } } };
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject, signal });
      this._postLater(flatRequest(id, op, request), into && into.buffer);
    });
  }

  // Every request made with this signal ends now, with the abort's reason.
  abort(signal) {
    for (const [id, p] of this.pending) {
      if (p.signal !== signal) continue;
      this._settle(id);
      p.reject(signal.reason);
      this._postLater(id); // cancel it there (after its start, in the same order)
    }
  }

  // Queues a message to the thread (moving the ArrayBuffer moved, if any); the turn's
  // messages go as one.
  _postLater(m, moved) {
    this.outbox.push(m);
    if (moved) this.moving.push(moved);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      const out = this.outbox, moving = this.moving;
      this.outbox = [];
      this.moving = [];
      if (this.failed && !out.length) return;
      this.worker.postMessage(out.length === 1 ? out[0] : { batch: out }, moving);
    });
  }

  _settle(id) {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  _answer(m) {
    if (Array.isArray(m)) m = { id: m[0], text: m[1] };
    if (m.lent) giveBack(Buffer.from(m.lent.buffer, m.lent.byteOffset, m.lent.byteLength)); // even for an aborted request
    const p = this.pending.get(m.id);
    if (!p) return; // aborted meanwhile
    this._settle(m.id);
    if (m.text !== undefined) p.resolve(m.text);
    else if (m.head !== undefined) p.resolve({ status: m.status, head: m.head, bytes: m.bytes, checksum: m.checksum, body: m.body && Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength) });
    else if (m.page) {
      this.pages++;
      try { p.resolve(pageFromColumns(m.page)); } catch (err) { p.reject(err); }
    } else if (m.fallback !== undefined) p.reject(new FallBack(m.fallback, m.status));
    else if (m.badPage) p.reject(new PageError(m.error));
    else if (m.changed) p.reject(new FileChanged(m.error));
    else p.reject(Object.assign(new Error(m.error), m.code ? { code: m.code } : {}));
  }

  // A thread that died sends every open request, and all later ones, to the main thread's path.
  _fail(err) {
    if (this.failed) return;
    this.failed = err;
    for (const [id, p] of this.pending) { this._settle(id); p.reject(new FallBack(`request thread: ${err.message}`)); }
  }

  destroy() {
    this._fail(new Error('closed'));
    this.worker.terminate();
  }
}

module.exports = { RequestThread, flatRequest, unflatRequest, movable };
