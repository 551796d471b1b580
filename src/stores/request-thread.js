'use strict';
// The main thread's side of the request thread: a worker that sends the lean path's signed
// requests (list pages, CopyObject) and parses list pages. At full speed the main thread
// saturates one core with HTTP work, socket writes and parsing; this moves them to the
// second core. Pages come back as columns (list-parser), other answers as text.
const path = require('path');
const { Worker } = require('worker_threads');
const { FallBack } = require('./http-fetch');
const { pageFromColumns } = require('./list-parser');

class RequestThread {
  constructor(maxSockets) {
    this.maxSockets = maxSockets;
    this.pending = new Map(); // id -> {resolve, reject, signal}
    this.nextId = 1;
    this.failed = null;
    this.pages = 0; // list pages answered here
    // A small young generation: the thread's own objects are few and short-lived.
    this.worker = new Worker(path.join(__dirname, 'request-worker.js'), { resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    // Held only while requests are out, so an idle thread never keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (m) => this._answer(m));
    this.worker.on('error', (err) => this._fail(err));
    this.worker.on('exit', (code) => this._fail(new Error(`the request thread exited (${code})`)));
  }

  get usable() { return this.failed === null; }

  /** request: {secure, options} as fetchBody takes it. Resolves to a page of items. */
  list(request, signal) { return this._post('list', request, signal); }

  /** The same request, answered with its body as text. */
  send(request, signal) { return this._post('send', request, signal); }

  _post(op, request, signal) {
    if (this.failed) return Promise.reject(new FallBack(this.failed.message));
    if (signal && signal.aborted) return Promise.reject(signal.reason);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject, signal });
      this.worker.postMessage({ id, op, request, maxSockets: this.maxSockets });
    });
  }

  // Every request made with this signal ends now, with the abort's reason.
  abort(signal) {
    for (const [id, p] of this.pending) {
      if (p.signal !== signal) continue;
      this._settle(id);
      p.reject(signal.reason);
      this.worker.postMessage({ cancel: id });
    }
  }

  _settle(id) {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  _answer(m) {
    const p = this.pending.get(m.id);
    if (!p) return; // aborted meanwhile
    this._settle(m.id);
    if (m.text !== undefined) p.resolve(m.text);
    else if (m.page) {
      this.pages++;
      try { p.resolve(pageFromColumns(m.page)); } catch (err) { p.reject(err); }
    } else if (m.fallback !== undefined) p.reject(new FallBack(m.fallback, m.status));
    else p.reject(new Error(m.error));
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

module.exports = { RequestThread };
