'use strict';
// One bodiless HTTP request whose whole answer is wanted: the body of a 200 as a Buffer.
// Anything else (another status, a network failure, a timeout, a short body) is a FallBack,
// which tells the caller to ask the SDK, whose retries and messages then apply.
const http = require('http');
const https = require('https');

class FallBack extends Error {
  constructor(reason, status) { super(reason); this.status = status; }
}

const TIMEOUT_MS = 120000;
const MAX_PREALLOC = 16 << 20; // a length beyond this is not trusted with a buffer up front

function keepAliveAgents(maxSockets) {
  const n = Math.max(64, (maxSockets || 100) + 16);
  // As many idle sockets kept as may be busy: Node's default of 256 closes the rest after
  // each burst of hundreds of copies, and they are then opened again.
  const o = { keepAlive: true, maxSockets: n, maxFreeSockets: n, scheduling: 'lifo' };
  return { http: new http.Agent(o), https: new https.Agent(o) };
}

/**
 * @param request {secure, options} options for http(s).request, without the agent
 * @param agents  from keepAliveAgents
 * @param track   (req) => void, to destroy it on abort
 * @param signal  when aborted, its reason is the rejection
 */
function fetchBody({ secure, options }, agents, track, signal) {
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({ ...options, agent: secure ? agents.https : agents.http }, (res) => {
      // With a length, chunks are copied into one buffer as they come, so each dies young
      // instead of living on beside a concatenated copy: a hundred pages in flight add up.
      const len = Number(res.headers['content-length']);
      const whole = len > 0 && len <= MAX_PREALLOC ? Buffer.allocUnsafe(len) : null;
      const chunks = [];
      let got = 0;
      res.on('data', (c) => {
        if (whole && got + c.length <= len) c.copy(whole, got);
        else chunks.push(c);
        got += c.length;
      });
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new FallBack(`HTTP ${res.statusCode}`, res.statusCode));
        if (len && got !== len) return reject(new FallBack('truncated response'));
        resolve(whole || (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
      });
    });
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new FallBack('timeout')));
    req.on('error', (err) => reject(signal && signal.aborted ? (signal.reason || err) : err instanceof FallBack ? err : new FallBack(err.code || err.message)));
    if (track) track(req);
    if (!req.destroyed) req.end();
  });
}

module.exports = { FallBack, fetchBody, keepAliveAgents };
