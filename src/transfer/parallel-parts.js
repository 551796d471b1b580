'use strict';
// Runs the parts of one object at most `concurrency` at a time. The first failure stops
// new parts from starting and aborts the ones in flight (through the signal each part
// gets); we still wait for them all to settle, so nothing touches the file or the
// multipart upload after the caller starts cleaning up.
const { setMaxListeners } = require('events');

async function runParts(count, concurrency, signal, fn) {
  const ac = new AbortController();
  // Every part in flight listens on it several times (its requests, its body stream): its
  // limit is lifted, or Node warns on stderr past 10 listeners (src/signal.js).
  setMaxListeners(0, ac.signal);
  const onAbort = () => ac.abort(signal.reason);
  if (signal) {
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  const results = new Array(count);
  let next = 0;
  let failure = null;
  const worker = async () => {
    while (!failure && !ac.signal.aborted && next < count) {
      const i = next++;
      try {
        results[i] = await fn(i, ac.signal);
      } catch (err) {
        if (!failure) { failure = err; ac.abort(err); }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency || 1, count)) }, worker));
  } finally {
    if (signal) signal.removeEventListener('abort', onAbort);
  }
  if (failure) throw failure;
  if (ac.signal.aborted) throw ac.signal.reason;
  return results;
}

module.exports = { runParts };
