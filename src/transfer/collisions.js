'use strict';
// Detects two source keys mapped to one target key, for key functions that may not be
// one-to-one (--to-key). Keeps two 52-bit hashes per target key (about 40 bytes each)
// instead of the keys; a false report needs both to collide (odds ~ n^2 / 2^105).
const crypto = require('crypto');

class CollisionDetector {
  constructor() {
    this.seen = new Map(); // h1 -> h2
  }

  // True when targetKey was already produced for an earlier source key.
  add(targetKey) {
    const d = crypto.createHash('md5').update(targetKey, 'utf8').digest();
    const h1 = d.readUIntBE(0, 6) * 16 + (d[6] >> 4);
    const h2 = d.readUIntBE(8, 6) * 16 + (d[14] >> 4);
    const prev = this.seen.get(h1);
    if (prev === undefined) { this.seen.set(h1, h2); return false; }
    return prev === h2;
  }
}

module.exports = { CollisionDetector };
