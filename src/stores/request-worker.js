'use strict';
// The request thread's side: sends the signed requests it is given (reading a body from a
// file or writing an answer to one where asked); list pages are parsed here into columns,
// other answers go back as text or as {status, head, body, bytes}.
const { parentPort, workerData } = require('worker_threads');
const v8 = require('v8');
const vm = require('vm');
const { HttpPool, FallBack } = require('./http-pool');
const { parseListColumns, PageError } = require('./list-parser');
const { unflatRequest, movable } = require('./request-thread');
const { fetchWithFile, FileChanged } = require('./file-io');

let pool = null;

// Almost all of this thread's garbage is buffers: answers held whole (list pages, small
// objects) and bodies read from files. V8 counts them as external memory and collects them
// by itself only after some 64 MB, on top of a burst of pages in flight; collecting after
// every 16 MB of them keeps the thread's memory near one burst. Sockets read into a buffer
// of their own (http-pool.js), so a download written to a file makes no such garbage and
// forces no collection.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc');
const COLLECT_EVERY = 16 << 20;
let received = 0, counted = 0;
// Buffers allocated since the last look: the pool's answers, and a body read from a file
// (unless it is kept for the next part: file-io.js).
function allocatedSince(m, buf) {
  const a = pool.allocated;
  const n = a - counted + (m.request.file && m.request.file.read && !buf.recycled ? buf.bytes || 0 : 0);
  counted = a;
  return n;
}
const inflight = new Map(); // id -> its call, or null until the request is sent
const cancelled = new Set();

// Answers go back in batches, one message per event-loop turn (see request-thread.js).
let outbox = [], flushing = false;
function send(m, buffers) {
  outbox.push([m, buffers]);
  if (flushing) return;
  flushing = true;
  setImmediate(() => {
    flushing = false;
    const out = outbox;
    outbox = [];
    if (out.length === 1) { parentPort.postMessage(out[0][0], out[0][1]); return; }
    const moved = new Set();
    for (const [, b] of out) if (b) for (const x of b) moved.add(x);
    try {
      parentPort.postMessage({ batch: out.map((x) => x[0]) }, [...moved]);
    } catch {
      for (const [msg, b] of out) parentPort.postMessage(msg, b); // one that would not clone fails alone
    }
  });
}

function start(msg) {
  const m = unflatRequest(msg);
  // A buffer lent by the main thread for the body goes back with whatever answer this gets,
  // once (were it given back twice, two parts would share it).
  let into = m.request.file && m.request.file.read && m.request.file.read.into;
  const reply = (x, buffers) => {
    if (!into) { send(x, buffers); return; }
    const lent = into;
    into = null;
    send({ ...x, lent }, [...(buffers || []), lent.buffer]);
  };
  pool ??= new HttpPool(workerData.maxSockets);
  inflight.set(m.id, null); // not sent yet (a file is being opened): a cancel is remembered
  fetchWithFile(pool, m.request, (call) => {
    if (cancelled.has(m.id)) call.destroy();
    else inflight.set(m.id, call);
  })
    .finally(() => { inflight.delete(m.id); cancelled.delete(m.id); })
    .then((buf) => {
      if (m.op === 'send') { reply([m.id, buf.toString('utf8')]); return; }
      if (m.op === 'full') {
        const body = !buf.body ? null : movable(buf.body) ? buf.body : new Uint8Array(buf.body); // an exact copy can move
        reply({ id: m.id, status: buf.status, head: buf.head, body, bytes: buf.bytes, checksum: buf.checksum }, body ? movable(body) : undefined);
        if ((received += allocatedSince(m, buf)) > COLLECT_EVERY) { received = 0; collect(); }
        return;
      }
      const page = parseListColumns(buf);
      const c = page.columns;
      reply({ id: m.id, page }, [c.keyEnds.buffer, c.etagEnds.buffer, c.sizes.buffer, c.times.buffer, ...(c.classes ? [c.classes.of.buffer] : [])]);
      if ((received += allocatedSince(m, buf)) > COLLECT_EVERY) { received = 0; collect(); }
    }, (err) => {
      if (err instanceof FallBack) reply({ id: m.id, fallback: err.message, status: err.status });
      else reply({ id: m.id, error: err.message, code: err.code, changed: err instanceof FileChanged });
    })
    .catch((err) => reply({ id: m.id, error: err.message, badPage: err instanceof PageError })); // a page that would not parse
}

function handle(m) {
  if (typeof m !== 'number') start(m);
  else if (inflight.get(m)) inflight.get(m).destroy(); // cancelled
  else if (inflight.has(m)) cancelled.add(m); // cancelled before it was sent
}

parentPort.on('message', (m) => {
  if (m && m.batch) for (const x of m.batch) handle(x);
  else handle(m);
});
