'use strict';
// A lean HTTP/1.1 client for the hot requests (list pages, copies, heads, object bodies):
// requests with a body in one buffer, on kept-alive sockets, each answer read whole or
// handed to a sink as it arrives.
// Node's http module makes a ClientRequest,
// an IncomingMessage, a parser and a dozen listeners per request; at thousands of requests
// a second that machinery and its garbage cost more CPU than the requests themselves. Here
// a socket keeps one set of listeners for life and a request is one small object.
const net = require('net');
const tls = require('tls');
const { DEFAULTS } = require('../options');

class FallBack extends Error {
  constructor(reason, status) { super(reason); this.status = status; }
}

const TIMEOUT_MS = 120000;
const CONNECT_TIMEOUT_MS = 10000; // as the SDK client's
const MAX_PREALLOC = 16 << 20; // a length beyond this is not trusted with a buffer up front
const MAX_HEAD = 64 << 10;
// A socket's read buffer. Downloads of 4 x 256 MiB from the benchmark's fake S3 (plain HTTP,
// bench/probe-transfer.js): 1.2-1.45 s of client CPU per GiB at 256 KiB, 1.4 at 128, 2.25
// at 64, 1.3 at 512; 3.1-3.25 with a fresh buffer per read (Node's default, and a forced
// collection of them every 16 MB). Costs 256 KiB of memory a socket once it has read that much.
const READ_BUFFER = 256 << 10;
const CRLF2 = Buffer.from('\r\n\r\n');
const BAD_VALUE = /[\r\n\0]/;

// The head of an answer: status, body length (-1: chunked, -2: until close), keep-alive.
function parseHead(text) {
  const status = Number(text.slice(9, 12));
  const lower = text.toLowerCase();
  const value = (name) => {
    const i = lower.indexOf(`\r\n${name}:`);
    if (i < 0) return null;
    const end = lower.indexOf('\r\n', i + 2);
    return lower.slice(i + name.length + 3, end < 0 ? lower.length : end).trim();
  };
  const te = value('transfer-encoding');
  const cl = value('content-length');
  const conn = value('connection');
  let length = te !== null && te.includes('chunked') ? -1 : cl !== null ? (/^\d+$/.test(cl) ? Number(cl) : NaN) : -2;
  if (status === 204 || status === 304) length = 0;
  if (!/^HTTP\/1\.[01] \d{3}/.test(text) || Number.isNaN(length)) return null;
  const keepAlive = text.startsWith('HTTP/1.1') ? conn !== 'close' : conn === 'keep-alive';
  return { status, length, keepAlive: keepAlive && length !== -2 };
}

// One request on one socket, and the reading of its answer.
class Call {
  constructor(pool, origin, head, resolve, reject, o = {}) {
    this.pool = pool;
    this.origin = origin;
    this.head = head;
    this.payload = o.body || null; // the request's body
    this.full = Boolean(o.full || o.sink); // resolve {status, head, body} for any 2xx, not the body of a 200
    // sink(chunk, offset): a 2xx answer's body goes there as it arrives, never held whole
    // (a download straight to a file); it may throw to end the request.
    this.sink = o.sink || null;
    this.sinking = false;
    this.bodiless = o.method === 'HEAD';
    this.headText = '';
    this.resolve = resolve;
    this.reject = reject;
    this.socket = null;
    this.reused = false;
    this.started = 0;
    this.done = false;
    this.received = 0; // bytes of the answer
    this.pending = null; // head bytes not yet complete
    this.status = 0;
    this.length = 0;
    this.keepAlive = false;
    this.inBody = false;
    this.body = null; // preallocated for a known length
    this.chunks = null; // otherwise
    this.got = 0;
    this.chunkLeft = 0; // chunked: bytes left of the current chunk; 0 a size line next, -2 a CRLF
    this.line = '';
    this.trailers = false;
    this.final = false; // ended by the caller or a timeout: not sent again
    this.fresh = false; // a second try: never on an idle socket
    this.retry = null; // the second try, which a destroy reaches
  }

  /** Ends the request now; the promise rejects with reason. */
  destroy(reason) {
    if (this.retry) { this.retry.destroy(reason); return; }
    if (this.done) return;
    this.final = true;
    this._fail(reason || new FallBack('aborted'));
  }

  start(socket, reused) {
    this.socket = socket;
    this.reused = reused;
    this.started = Date.now();
    socket.call = this;
    if (this.payload) {
      socket.cork();
      socket.write(this.head, 'latin1');
      socket.write(this.payload);
      socket.uncork();
    } else socket.write(this.head, 'latin1');
  }

  onData(buf) {
    this.received += buf.length;
    if (!this.inBody) {
      let data = this.pending ? Buffer.concat([this.pending, buf]) : buf;
      this.pending = null;
      for (;;) {
        const end = data.indexOf(CRLF2);
        if (end < 0) {
          if (data.length > MAX_HEAD) this._fail(new FallBack('answer head too long'));
          else { this.pending = Buffer.from(data); this.pool.allocated += data.length; } // the read buffer is reused
          return;
        }
        const text = data.toString('latin1', 0, end + 2);
        const head = parseHead(text);
        if (!head) { this._fail(new FallBack('not an HTTP/1.1 answer')); return; }
        data = data.subarray(end + 4);
        if (head.status >= 200) {
          if (this.bodiless) head.length = 0; // a HEAD's Content-Length is the object's
          if (this.full) this.headText = text;
          this._begin(head);
          break;
        }
        if (!data.length) return; // 100 Continue and the like: the real head follows
      }
      if (this.length === 0) { this._complete(data.length > 0); return; }
      buf = data;
    }
    for (let at = 0; !this.done && at < buf.length;) at = this._readBody(buf, at);
  }

  _begin(head) {
    this.status = head.status;
    this.length = head.length;
    this.keepAlive = head.keepAlive;
    this.inBody = true;
    if (this.sink && head.status >= 200 && head.status < 300) this.sinking = true;
    else if (head.length >= 0 && head.length <= MAX_PREALLOC) { this.body = Buffer.allocUnsafe(head.length); this.pool.allocated += head.length; }
    else this.chunks = [];
  }

  // Body bytes buf[from, to): to the sink, the preallocated body, or the list of chunks.
  _take(buf, from, to) {
    if (this.sinking) {
      try {
        this.sink(from === 0 && to === buf.length ? buf : buf.subarray(from, to), this.got);
      } catch (err) {
        this.final = true; // the bytes went nowhere: never sent again
        this._fail(err);
      }
    } else if (this.body) buf.copy(this.body, this.got, from, to);
    else { this.chunks.push(Buffer.from(buf.subarray(from, to))); this.pool.allocated += to - from; } // a copy: the read buffer is reused
    this.got += to - from;
  }

  // Consumes body bytes from buf at `at`; returns where it stopped.
  _readBody(buf, at) {
    if (this.length >= 0) {
      const n = Math.min(buf.length - at, this.length - this.got);
      this._take(buf, at, at + n);
      if (!this.done && this.got === this.length) this._complete(at + n < buf.length);
      return at + n;
    }
    if (this.length === -2) { // until the server closes
      this._take(buf, at, buf.length);
      return buf.length;
    }
    // Chunked: size line, data, CRLF, ... a zero size, trailers, an empty line.
    if (this.chunkLeft > 0) {
      const n = Math.min(buf.length - at, this.chunkLeft);
      this._take(buf, at, at + n);
      this.chunkLeft -= n;
      if (this.chunkLeft === 0) this.chunkLeft = -2; // its CRLF next
      return at + n;
    }
    const nl = buf.indexOf(10, at);
    if (nl < 0) { this.line += buf.toString('latin1', at, buf.length); return buf.length; }
    const line = (this.line + buf.toString('latin1', at, nl)).trim();
    this.line = '';
    if (this.chunkLeft === -2) { this.chunkLeft = 0; return nl + 1; } // the CRLF after data
    if (this.trailers) {
      if (line === '') this._complete(nl + 1 < buf.length);
      return nl + 1;
    }
    const size = parseInt(line, 16); // "1a2b;ext=1" reads as 0x1a2b
    if (!(size >= 0)) { this._fail(new FallBack('bad chunked encoding')); return buf.length; }
    if (size === 0) this.trailers = true;
    else this.chunkLeft = size;
    return nl + 1;
  }

  // extra: bytes came after the answer, which no HTTP/1.1 server sends unasked.
  _complete(extra = false) {
    this.done = true;
    this.pool._release(this, this.socket, this.keepAlive && !extra);
    const ok = this.full ? this.status >= 200 && this.status < 300 : this.status === 200;
    if (!ok) { this.reject(new FallBack(`HTTP ${this.status}`, this.status)); return; }
    if (this.sinking) { this.resolve({ status: this.status, head: this.headText, body: null, bytes: this.got }); return; }
    const body = this.body || (this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks));
    this.resolve(this.full ? { status: this.status, head: this.headText, body } : body);
  }

  // The socket closed: an answer that runs until close ends here; anything else failed.
  onClose(err) {
    if (this.done) return;
    if (this.inBody && this.length === -2 && !err) { this._complete(); return; }
    this._fail(err ? new FallBack(err.code || err.message) : new FallBack('connection closed early'));
  }

  _fail(err) {
    if (this.done) return;
    this.done = true;
    const socket = this.socket;
    // A kept-alive socket the server had already closed: send it once more on a new one.
    if (this.reused && this.received === 0 && !this.final && !this.pool.destroyed) {
      this.pool._release(this, socket, false);
      const again = new Call(this.pool, this.origin, this.head, this.resolve, this.reject, { body: this.payload, full: this.full, sink: this.sink, method: this.bodiless ? 'HEAD' : '' });
      again.fresh = true;
      this.retry = again;
      this.pool._retry(again, this);
      return;
    }
    this.pool._release(this, socket, false);
    this.reject(err);
  }
}

class Origin {
  constructor(key, secure, hostname, port) {
    this.key = key;
    this.secure = secure;
    this.hostname = hostname;
    this.port = port;
    this.idle = [];
    this.open = 0;
    this.queue = [];
  }
}

// Sockets for a concurrency of maxSockets requests, with room for the odd extra (a
// listing's folder requests, a copy's HEAD): the lean pool's and the SDK client's.
function poolSize(maxSockets) {
  return Math.max(64, (maxSockets || DEFAULTS.listConcurrency) + 16);
}

class HttpPool {
  /** tls: extra options for tls.connect (a test's own certificate authority as ca). */
  constructor(maxSockets, { tls: tlsOptions = {} } = {}) {
    this.max = poolSize(maxSockets);
    this.tls = tlsOptions;
    this.origins = new Map();
    this.active = new Set();
    this.destroyed = false;
    this.sweeper = null;
    // Bytes of buffers allocated for answers (bodies held whole or in pieces): what a thread
    // that collects its garbage by hand measures it by. Bytes that go to a sink allocate nothing.
    this.allocated = 0;
  }

  /**
   * One request: resolves to the body of a 200 as a Buffer (with full: {status, head, body}
   * for any 2xx, head the answer's header text); anything else (another status, a network
   * failure, a timeout) rejects with FallBack.
   * With sink(chunk, offset), a 2xx body goes there and the answer is {status, head, bytes}.
   * @param request {secure, options: {hostname, port, method, path, headers}, body?: Buffer, full?: boolean, sink?: Function}
   * @param track   (call) => void: call.destroy(reason) ends it
   */
  fetch({ secure, options: o, body, full, sink }, track) {
    return new Promise((resolve, reject) => {
      let head = `${o.method} ${o.path} HTTP/1.1\r\n`;
      for (const name in o.headers) {
        const v = String(o.headers[name]);
        if (BAD_VALUE.test(v)) { reject(new FallBack(`header ${name} has a line break`)); return; }
        head += `${name}: ${v}\r\n`;
      }
      head += '\r\n';
      const key = `${secure ? 's' : ''}${o.hostname}:${o.port}`;
      let origin = this.origins.get(key);
      if (!origin) this.origins.set(key, origin = new Origin(key, secure, o.hostname, Number(o.port)));
      const call = new Call(this, origin, head, resolve, reject, { body, full, sink, method: o.method });
      if (track) track(call);
      this._dispatch(call);
    });
  }

  _dispatch(call) {
    if (this.destroyed) { call.done = true; call.reject(new FallBack('connection pool closed')); return; }
    if (call.done) return; // destroyed while queued
    const origin = call.origin;
    const idle = !call.fresh && origin.idle.pop();
    if (idle) {
      idle.ref();
      this._begin(call, idle, true);
    } else if (origin.open < this.max) {
      this._begin(call, this._connect(origin), false);
    } else origin.queue.push(call);
  }

  _begin(call, socket, reused) {
    this.active.add(call);
    this.sweeper ??= setInterval(() => this._sweep(), 1000).unref();
    call.start(socket, reused);
  }

  _retry(call, old) {
    this.active.delete(old);
    this._dispatch(call);
  }

  _connect(origin) {
    // Every socket reads into one buffer of its own, reused for every read (onread; with TLS,
    // the decrypted bytes): no garbage per read, and an answer's bytes are copied out only
    // where they are kept (a body held whole, a head cut in two); a sink uses each chunk
    // before the next read.
    const onread = { buffer: Buffer.allocUnsafeSlow(READ_BUFFER), callback: (n, buf) => { if (socket.call) socket.call.onData(buf.subarray(0, n)); else socket.destroy(); } };
    const socket = origin.secure
      ? tls.connect({ ...this.tls, host: origin.hostname, port: origin.port, servername: net.isIP(origin.hostname) ? undefined : origin.hostname, ALPNProtocols: ['http/1.1'], onread })
      : net.connect({ host: origin.hostname, port: origin.port, onread });
    origin.open++;
    socket.setNoDelay(true);
    socket.call = null;
    socket.failure = null;
    socket.on('error', (err) => { socket.failure = err; });
    socket.on('close', () => {
      origin.open--;
      const i = origin.idle.indexOf(socket);
      if (i >= 0) origin.idle.splice(i, 1);
      const call = socket.call;
      socket.call = null;
      if (call) call.onClose(socket.failure);
      this._next(origin);
    });
    return socket;
  }

  // A call is over with its socket: keep the socket for the next request, or close it.
  _release(call, socket, keep) {
    this.active.delete(call);
    if (!socket || socket.call !== call) return;
    socket.call = null;
    const origin = call.origin;
    if (keep && !this.destroyed && !socket.destroyed) {
      let next = origin.queue.shift();
      while (next && next.done) next = origin.queue.shift(); // ended while waiting
      if (next) { this._begin(next, socket, true); return; }
      socket.unref(); // an idle socket never keeps the process alive
      origin.idle.push(socket);
    } else socket.destroy();
  }

  _next(origin) {
    while (origin.queue.length && origin.open < this.max) {
      const call = origin.queue.shift();
      if (!call.done) this._dispatch(call);
    }
  }

  _sweep() {
    const now = Date.now();
    for (const call of this.active) {
      const age = now - call.started;
      if (age > TIMEOUT_MS) call.destroy(new FallBack('timeout'));
      else if (age > CONNECT_TIMEOUT_MS && call.socket.connecting) call.destroy(new FallBack('connect timeout'));
    }
    if (this.active.size === 0) { clearInterval(this.sweeper); this.sweeper = null; }
  }

  destroy() {
    this.destroyed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    for (const origin of this.origins.values()) {
      for (const call of origin.queue.splice(0)) call.destroy(new FallBack('connection pool closed'));
      for (const s of origin.idle.splice(0)) s.destroy();
    }
    for (const call of [...this.active]) call.destroy(new FallBack('connection pool closed'));
  }
}

// An answer's header text as {lowercase name: value} (repeated names joined with ", ").
function headerMap(text) {
  const out = {};
  let at = text.indexOf('\r\n');
  while (at >= 0 && at < text.length - 2) {
    const end = text.indexOf('\r\n', at + 2);
    const line = text.slice(at + 2, end < 0 ? text.length : end);
    const colon = line.indexOf(':');
    if (colon > 0) {
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      out[name] = name in out ? `${out[name]}, ${value}` : value;
    }
    at = end;
  }
  return out;
}

module.exports = { HttpPool, FallBack, parseHead, poolSize, headerMap };
