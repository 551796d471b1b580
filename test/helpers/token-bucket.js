'use strict';
// A token bucket, as S3 limits writes to a prefix: it holds up to `burst` tokens and refills
// at a rate a second; a request is accepted only while a whole token is left. The rate is
// passed on each refill so that a test can raise it mid-run. Used by bench/fake-s3.js (over
// HTTP), test/helpers/sim-pacing.js (virtual clock) and the MinIO throttling test (a proxy).
class TokenBucket {
  constructor(burst, now) {
    this.burst = burst;
    this.tokens = burst;
    this.at = now;
  }

  // Adds what `rate` tokens a second earned since the last refill, up to the burst.
  refill(now, rate) {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * rate);
    this.at = now;
  }

  // Spends a token if a whole one is left; false (nothing spent) otherwise.
  take() {
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  // refill then take: the usual call.
  admit(now, rate) {
    this.refill(now, rate);
    return this.take();
  }
}

module.exports = { TokenBucket };
