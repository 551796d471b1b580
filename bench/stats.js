'use strict';
// Small statistics the bench scripts share.

// The middle value (the upper of the two middle ones for an even count); NaN for none.
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[s.length >> 1] : NaN; };

module.exports = { median };
