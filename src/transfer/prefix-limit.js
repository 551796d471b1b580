'use strict';
// Pacing for one key prefix, set by what that prefix accepts. S3 limits requests per prefix
// (about 3,500 writes a second) and answers SlowDown past it; one prefix's limit says nothing
// about another's, so each prefix a copy writes to gets its own. S3 counts requests a
// second, not requests in flight, so once the prefix has been throttled what is paced is the
// rate of sending (a prefix that takes 100 writes a second at 14 ms a request needs 1.4
// requests in flight, which no whole number of slots gives). Every number is in PACE below.
//
// - Starting: PACE.START_SLOTS requests in flight, growing by PACE.START_GROWTH each window
//   nothing is throttled, up to the copy's concurrency. A copy never opens at 500 requests
//   at once on a prefix that takes a few hundred a second: each would be throttled, and its
//   slot freed at once for the next.
// - A window is judged on answers to requests let go since the last change only (those before
//   say nothing about it), after PACE.WINDOW_MS, or early on PACE.FAST_THROTTLES SlowDowns.
// - Throttled past the background (below) by more than PACE.CUT_SHARE and chance: the prefix is
//   paced from then on, at a little under what it took of what was sent (PACE.CUT_TO), which
//   is remembered as the ceiling.
// - Not throttled past the background, while the pace (or the slots) was the bound: the rate
//   climbs, slowly near the ceiling, faster under it or once past it (a raised limit: S3 adds
//   capacity to a busy prefix). Otherwise it holds.
// - The background: the share of SlowDowns that come whatever the rate (a store's hiccups, a
//   proxy's faults), learnt where the rate cannot be the cause (under the ceiling, or with
//   none yet). Without it, random SlowDowns above PACE.CUT_SHARE cut the rate without end.
const { ConcurrencyLimit } = require('./concurrency-limit');

// Every number of the pacing, with what it trades (issue 30). Set on the virtual clock with
// bench/sim-pacing.js (the real Copier against a token bucket per prefix; 40 conditions drawn
// from seeds 1-40, then 400 from 1000-1199 and 3000-3199, and random SlowDowns of 0.5-20%),
// 2026-12-02; docs/transfer-benchmark.md has the figures. Not varied one at a time unless said.
const PACE = {
  START_SLOTS: { value: 16, trades: 'requests in flight a prefix opens with: higher reaches an unthrottled store\'s speed a window or two sooner, for more requests throttled at once where the prefix takes little', setBy: 'varied alone on an earlier form of this controller, 2026-12-02 (bench/sim-pacing.js, the first draw of seeds 1-40): 8, 16, 32, 64 gave 30, 33, 29, 25 conditions of 40 under 3% throttled; 16 also opens sooner where nothing throttles' },
  START_GROWTH: { value: 1.5, trades: 'how the slots grow each unthrottled window until the first throttling: faster reaches an unthrottled store\'s speed sooner, and overshoots a limited prefix further (its burst hides the limit for a while), each slot over it a throttled request', setBy: 'varied alone on an earlier form, 2026-12-02: 2, 1.5, 1.3 gave 26, 30, 34 conditions of 40 under 3%; 1.3 takes about 3 s to open where nothing throttles' },
  WINDOW_MS: { value: 200, trades: 'shortest window the throttled share is judged over: shorter reacts sooner, on fewer answers (noisier)', setBy: 'varied alone on an earlier form, 2026-12-02: 100, 200, 400 gave 27, 30, 36 conditions of 40 under 3%, but at 400 two sustained under 0.9 of the allowed rate (least 0.73)' },
  WINDOW_ANSWERS: { value: 20, trades: 'answers a window waits for (up to PACE.WINDOW_MAX_MS): more judges a slow prefix on firmer counts, later', setBy: 'chosen, not measured (2026-12-02)' },
  WINDOW_MAX_MS: { value: 1000, trades: 'longest a window waits for PACE.WINDOW_ANSWERS: longer judges a slow prefix on more answers, climbs it more slowly', setBy: 'chosen, not measured (2026-12-02)' },
  CUT_MIN: { value: 0.1, trades: 'the least one cut takes off the rate (a share of it): more leaves the limit sooner where a window understated the excess (a store\'s burst still draining), for a deeper dip where it did not', setBy: 'chosen, not measured: the cut of the controller before it (2026-12-02)' },
  CUT_MAX: { value: 0.8, trades: 'the most one cut takes off the rate (a share of it): more lands sooner where the limit is far below, but a cut on a misleading window costs more', setBy: '0.5 tried first (2026-12-02); 0.8 came with the estimate of what a folder took; not varied alone' },
  FAST_THROTTLES: { value: 5, trades: 'SlowDowns a cut needs, and that end a window early (once it has PACE.WINDOW_ANSWERS): fewer cuts sooner after a rise (fewer throttled requests), on less evidence (sporadic SlowDowns cut too)', setBy: 'varied alone on an earlier form, 2026-12-02: 5, 10, 20 gave 31, 30, 28 conditions of 40 under 3%' },
  CUT_SHARE: { value: 0.02, trades: 'throttled share of a window above which the rate is cut: lower keeps the throttled share down, and cuts for sporadic SlowDowns too', setBy: '0.05 tried on an earlier form, 2026-12-02: conditions under 3% past their first 3 s 40 -> 37 of 40 (median 0.65% -> 1.52%), and random SlowDowns of 5% took 194 s where 37' },
  CUT_TO: { value: 0.95, trades: 'rate after a cut, as a share of what the prefix accepted in the window: lower throttles less after a cut, for a slower rate until it climbs back', setBy: 'chosen, not measured: what the controller before it used (2026-12-02)' },
  CLIMB_NEAR: { value: 0.01, trades: 'climb a window near the ceiling (within PACE.NEAR of it): higher probes the known limit more often (more throttled requests), regains a lost rate sooner', setBy: 'chosen, not measured (2026-12-02)' },
  CLIMB_FAR: { value: 0.05, trades: 'climb a window under the ceiling (past PACE.NEAR of it): higher regains a cut rate sooner, meets the ceiling with a larger step', setBy: 'the controller before it climbed 5%; 10% and 20% tried where no ceiling is known, 2026-12-02: conditions under 3% past their first 3 s 38 and 36 of 40 against 38, random SlowDowns no better' },
  NEAR: { value: 0.1, trades: 'how close to the ceiling counts as near (a share of it): wider probes slowly over a wider band', setBy: 'chosen, not measured (2026-12-02)' },
  CHANCE_FLOOR: { value: 0.01, trades: 'the least background share a cut allows chance for: higher keeps hiccups in small windows from cutting (a prefix at a few hundred a second judges windows of a few dozen answers), and cuts later for the rate\'s own SlowDowns where there is no background', setBy: 'added 2026-12-02: without it one SlowDown in a window of 30 answers cut the rate by a tenth, a window\'s climb being a hundredth, and 1% of random SlowDowns took copies to 4-8 times their ideal time (17 times a clean copy\'s where no limit was): 1.0-1.3 with it; the 200 drawn conditions of seeds 1000-1199 under 3% past their first 3 s 194 -> 190, all requests throttled 1.54% -> 1.81% (seeds 3000-3199: 194 -> 192, 1.52% -> 1.74%). 0.02 not tried' },
  CHANCE_SD: { value: 2, trades: 'standard deviations of the background\'s SlowDowns a window may show by chance (neither cut for, nor kept from climbing): more tolerates random SlowDowns on fewer answers, and cuts later for the rate\'s own where there is a background', setBy: 'chosen, not varied (2026-12-02); an earlier form without it took 15 s and 57 s for one folder of a store with no limit and 0.5% and 1% random SlowDowns, where a clean copy took 3.2' },
  BACKGROUND_WEIGHT: { value: 0.2, trades: 'weight of each window in the background share (SlowDowns at any rate, learnt under the ceiling): higher follows a change in them sooner, and one unlucky window more', setBy: 'chosen, not measured (2026-12-02)' },
  CUTS_TO_LEARN: { value: 3, trades: 'cuts in a row under the ceiling after which their windows teach the background too: fewer learns random SlowDowns sooner (fewer cuts for them), and may learn a store\'s draining burst as background', setBy: 'chosen 2026-12-02: without it, random SlowDowns of 5% and more took a three-folder copy from 10 s to over 120 s; with it 30-37 s' },
  LEARN_UNDER: { value: 0.05, trades: 'how far under the ceiling (a share of it) a window must be sent for its SlowDowns to teach the background: wider learns only where the rate surely is not their cause, and learns less', setBy: 'chosen, not varied (2026-12-02)' },
  BUSY: { value: 0.9, trades: 'share of its paced rate a prefix must have sent in a window for the rate to climb: lower climbs while objects come slower than the pace (and meets the limit at once when they come faster), higher may not climb where sends are uneven', setBy: 'added 2026-12-02 after a folder fed slower than its pace climbed to 1.5 times its limit unthrottled; the drawn conditions changed little with it; not varied' },
  SLACK_MS: { value: 20, trades: 'sending time a paced prefix may make up at once after a pause: more lets a burst through after a lull (the store\'s own burst may take it), fewer keeps the sends even', setBy: 'chosen, not measured (2026-12-02)' },
  TRACE_EVENTS: { value: 1000, trades: 'changes a prefix keeps in the run\'s concurrencyTrace (--debug prints every one): more shows longer runs whole, for memory (a few dozen bytes each, per prefix)', setBy: 'chosen, not measured: the cap the controller before it had' },
  MIN_RATE: { value: 1, trades: 'least send rate, requests a second: a floor so that a prefix throttled outright is still tried', setBy: 'chosen, not measured (2026-12-02)' },
};
const P = Object.fromEntries(Object.entries(PACE).map(([k, v]) => [k, v.value]));
const MS_PER_S = 1000;

class PrefixLimit extends ConcurrencyLimit {
  // room: () => whether what the prefix lets go is sent at once (no pool of the caller's
  // behind it is full): where it is not, the pool is the bound and the prefix does not climb.
  constructor(max, { min = 1, name = 'prefix', onChange, startSlots = P.START_SLOTS, room = () => true } = {}) {
    super(max, { min, name, onChange, traceCap: P.TRACE_EVENTS });
    this.room = room;
    this.limit = Math.max(this.min, Math.min(max, startSlots));
    this.rate = null; // requests a second; null: not paced yet (slots growing until throttled)
    this.ceiling = null; // what the prefix took when last throttled (paced)
    this.good = null; // the last rate a whole busy window sent without a SlowDown
    this.cuts = 0; // cuts in a row (no window between them judged fine)
    this.background = 0; // the throttled share that does not follow the rate
    this.nextAt = 0; // when a paced prefix may send next
    this.timer = null;
    this.changedAt = Date.now();
    this._newWindow(this.changedAt);
  }

  _newWindow(now) {
    this.windowStart = now;
    this.ok = 0;
    this.ms = 0; // time the window's answers took, in all
    this.throttles = 0;
    this.waited = false;
    this.sent = 0; // requests started in the window
  }

  _next() {
    while (this.waiting.length && this.active < this.limit) {
      if (this.rate) {
        const now = Date.now();
        if (this.nextAt > now) {
          this.waited = true;
          if (!this.timer) this.timer = setTimeout(() => { this.timer = null; this._next(); }, this.nextAt - now);
          return;
        }
        this.nextAt = Math.max(this.nextAt, now - P.SLACK_MS) + MS_PER_S / this.rate;
      }
      this.sent++;
      this.waiting.shift()();
    }
    if (this.waiting.length) this.waited = true;
  }

  /** A request of this prefix was answered; ms: how long it took. */
  succeeded(ms) {
    if (!this._counts(ms)) return;
    this.ok++;
    this.ms += ms || 0;
    this._maybeEvaluate();
  }

  /** A request of this prefix was throttled; ms: how long the answer took. */
  throttled(ms = 0) {
    if (!this._counts(ms)) return;
    this.throttles++;
    this.ms += ms || 0;
    this._maybeEvaluate();
  }

  // Only answers to requests sent since the last change judge it.
  _counts(ms) { return Date.now() - (ms || 0) >= this.changedAt; }

  _maybeEvaluate() {
    const now = Date.now();
    const answers = this.ok + this.throttles;
    const elapsed = now - this.windowStart;
    const due = elapsed >= P.WINDOW_MS && (answers >= P.WINDOW_ANSWERS || elapsed >= P.WINDOW_MAX_MS);
    const early = answers >= P.WINDOW_ANSWERS && this.throttles >= Math.max(P.FAST_THROTTLES, this._cutAt(answers));
    if (due || early) this._evaluate(now);
  }

  // SlowDowns a window is cut for at: more than the background and PACE.CUT_SHARE would give,
  // by PACE.CHANCE_SD standard deviations of the background's own (chance alone), taken as
  // PACE.CHANCE_FLOOR at least: a background not learnt yet is not none, and one SlowDown
  // among a slow prefix's few dozen answers is no evidence of its limit.
  _cutAt(answers) {
    const p = this.background + P.CUT_SHARE;
    return answers * p + P.CHANCE_SD * Math.sqrt(answers * Math.max(this.background, P.CHANCE_FLOOR));
  }

  _evaluate(now) {
    const answers = this.ok + this.throttles;
    const share = answers ? this.throttles / answers : 0;
    // Cut after cut under the ceiling, each aimed under what the prefix took, and still
    // throttled: more than the first cuts of a store draining its burst (which aim by windows
    // the burst made look better), these are SlowDowns no cut lessens, and are learnt as
    // background too.
    if (this.cuts >= P.CUTS_TO_LEARN && this.ceiling && this.rate && this.rate <= this.ceiling * (1 - P.LEARN_UNDER)) {
      this.background += P.BACKGROUND_WEIGHT * (share - this.background);
    }
    const b = this.background;
    if (this.throttles >= this._cutAt(answers)) {
      this.cuts++;
      // The cut aims under what the prefix took of what was sent (the paced rate, or slots
      // over the time an answer took): a store that throttles past a rate takes that rate,
      // whatever is sent past it. (The rate answers came back at was tried instead: after a
      // climb, the window's first answers are a latency away, and a store's burst passes
      // through it.)
      const from = this.rate || this._slotRate(answers);
      const taken = from * (1 - Math.max(0, share - b));
      // Never under the last rate a whole window took without a SlowDown (a window ended
      // early on a clump of them says less than that), once: if it is throttled too, the
      // next cut goes by its own window.
      const floor = Math.max(from * (1 - P.CUT_MAX), this.good ? this.good * P.CUT_TO : 0);
      const to = Math.max(P.MIN_RATE, Math.min(from * (1 - P.CUT_MIN), Math.max(floor, taken * P.CUT_TO)));
      this.good = null;
      // A ceiling only from a paced rate: slots over a mean answer time say roughly what was sent.
      this.ceiling = this.rate ? taken : null;
      this.limit = this.max; // paced from now on: the rate is the bound, not slots
      this._change(now, to, 'throttled');
      return;
    }
    this.cuts = 0;
    // The background is learnt where the rate cannot be what throttles: under the ceiling,
    // or where none is known (windows cut for are not learnt from, but above).
    if (!this.ceiling || (this.rate && this.rate <= this.ceiling * (1 - P.LEARN_UNDER))) {
      this.background = b + P.BACKGROUND_WEIGHT * (share - b);
    }
    const chance = answers * b + P.CHANCE_SD * Math.sqrt(answers * b);
    if (this.throttles <= chance && this.waited && this.room() && (!this.rate || this.sent >= P.BUSY * this.rate * (now - this.windowStart) / MS_PER_S)) {
      // Climbs only where it was the bound (slots all taken, or the paced rate all sent: a
      // rate never used says nothing about the prefix) and throttled no more than the
      // background would be.
      this.good = this.rate || this._slotRate(answers);
      if (!this.rate) {
        if (this.limit < this.max) this._change(now, null, 'starting', Math.min(this.max, Math.ceil(this.limit * P.START_GROWTH)));
        else this._newWindow(now);
      } else {
        // Near the ceiling it probes slowly; under it, or past it without a SlowDown (the
        // limit was raised: the ceiling is forgotten), it climbs faster. (Growing as a start
        // does once past the ceiling was tried: it overshot limits the window misjudged.)
        if (this.ceiling && this.rate > this.ceiling * (1 + P.NEAR)) this.ceiling = null;
        const c = this.ceiling;
        const step = c && this.rate >= c * (1 - P.NEAR) ? P.CLIMB_NEAR : P.CLIMB_FAR;
        this._change(now, this.rate * (1 + step), 'recovering');
      }
    } else {
      this._newWindow(now);
    }
  }

  // What the slots sent a second: slots over the time an answer took.
  _slotRate(answers) { return this.limit / (Math.max(1, this.ms / Math.max(1, answers)) / MS_PER_S); }

  _change(now, rate, reason, limit = this.limit) {
    // A new rate starts even: no credit for sends the old one would have made.
    if (rate !== this.rate) this.nextAt = Math.max(this.nextAt, now);
    this.rate = rate;
    this.changedAt = now;
    this._newWindow(now);
    if (!this._set(limit, reason)) this._trace(reason); // a new rate is traced even where the slots stay
    this._next();
  }

  _event(reason) {
    return { t: Date.now(), limit: this.limit, rate: this.rate === null ? undefined : +this.rate.toFixed(1), reason };
  }
}

module.exports = { PrefixLimit, PACE };
