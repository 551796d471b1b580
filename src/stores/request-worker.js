'use strict';
// The request thread's side: sends the signed requests it is given; list pages are parsed
// here into columns, other answers go back as text or as {status, head, body}.
const { parentPort, workerData } = require('worker_threads');
const v8 = require('v8');
const vm = require('vm');
const { HttpPool, FallBack } = require('./http-pool');
const { parseListColumns, PageError } = require('./list-parser');
const { unflatRequest, movable } = require('./request-thread');

let pool = null;

// Almost all of this thread's garbage is socket buffers. V8 counts them as external memory
// and collects them by itself only after some 64 MB, on top of a burst of pages in flight;
// collecting after every 16 MB of answers keeps the thread's memory near one burst.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc');
const COLLECT_EVERY = 16 << 20;
let received = 0;
const inflight = new Map();

// Answers go back in batches, one message per event-loop turn (see request-thread.js).
let outbox = [], flushing = false;
function reply(m, buffers) {
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
  pool ??= new HttpPool(workerData.maxSockets);
  pool.fetch(m.request, (call) => inflight.set(m.id, call))
    .finally(() => inflight.delete(m.id))
    .then((buf) => {
      if (m.op === 'send') { reply([m.id, buf.toString('utf8')]); return; }
      if (m.op === 'full') {
        const body = movable(buf.body) ? buf.body : new Uint8Array(buf.body); // an exact copy can move
        reply({ id: m.id, status: buf.status, head: buf.head, body }, movable(body));
        if ((received += body.length) > COLLECT_EVERY) { received = 0; collect(); }
        return;
      }
      const page = parseListColumns(buf);
      const c = page.columns;
      reply({ id: m.id, page }, [c.keyEnds.buffer, c.etagEnds.buffer, c.sizes.buffer, c.times.buffer]);
      if ((received += buf.length) > COLLECT_EVERY) { received = 0; collect(); }
    }, (err) => {
      reply(err instanceof FallBack ? { id: m.id, fallback: err.message, status: err.status } : { id: m.id, error: err.message });
    })
    .catch((err) => reply({ id: m.id, error: err.message, badPage: err instanceof PageError })); // a page that would not parse
}

function handle(m) {
  if (typeof m !== 'number') start(m);
  else if (inflight.has(m)) inflight.get(m).destroy(); // cancelled
}

parentPort.on('message', (m) => {
  if (m && m.batch) for (const x of m.batch) handle(x);
  else handle(m);
});
