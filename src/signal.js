'use strict';
// One internal AbortSignal per run, following the caller's. Hundreds of requests in
// flight each listen on it, so its listener limit is lifted (Node warns past 10);
// the caller's own signal gets a single listener.
const { setMaxListeners } = require('events');

function runSignal(userSignal) {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  controller.signal.__s3blitzRun = true;
  if (userSignal) {
    if (userSignal.aborted) controller.abort(userSignal.reason);
    else userSignal.addEventListener('abort', () => controller.abort(userSignal.reason), { once: true });
  }
  return controller.signal;
}

module.exports = { runSignal };
