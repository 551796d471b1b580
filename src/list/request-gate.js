'use strict';
// Whether a lister may send another list request: at most `concurrency` in flight, at most
// `maxRequests` in all (--max-list-requests), none once stopped. Every request shares the
// gate's abort signal, fired when the listing stops.
const { setMaxListeners } = require('events');
const { RequestStats } = require('../stats');

function budgetNotice(requests) {
  return `stopped after ${requests} list requests (--max-list-requests): the listing is incomplete`;
}

class RequestGate {
  /** @param o {concurrency, maxRequests, stats, log} */
  constructor(o = {}) {
    this.concurrency = o.concurrency || 1;
    this.maxRequests = o.maxRequests || Infinity;
    this.stats = o.stats || new RequestStats();
    this.log = o.log || (() => {});
    this.inflight = 0;
    this.stopped = false; // budget spent, failed or ended by the consumer
    this.abort = new AbortController();
    setMaxListeners(0, this.abort.signal); // the SDK listens once per request in flight
  }

  get signal() { return this.abort.signal; }

  // Requests the budget still allows.
  get left() { return this.maxRequests - this.stats.listRequests; }

  // The budget is spent: stops the gate, and says so once per stop.
  spent() {
    if (this.stats.listRequests < this.maxRequests) return false;
    if (!this.stopped) this.log(budgetNotice(this.stats.listRequests));
    this.stopped = true;
    return true;
  }

  // Slots free now (none when stopped or when the output is full).
  room(outputFull = false) {
    if (this.stopped || outputFull) return 0;
    return this.concurrency - this.inflight;
  }

  sent(now) {
    this.inflight++;
    this.stats.listRequests++;
    this.stats.listInflight(1, now);
  }

  settled(now) {
    this.inflight--;
    this.stats.listInflight(-1, now);
  }

  // No more requests; those in flight are aborted with reason.
  stop(reason) {
    this.stopped = true;
    this.abort.abort(reason);
  }
}

module.exports = { RequestGate, budgetNotice };
