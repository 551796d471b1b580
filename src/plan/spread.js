'use strict';

// A list reordered so that every prefix of it is spread over the whole: its first, then
// the middle, quarters, ... (probes taken in this order cover a range evenly however few
// of them a budget allows).
function spread(list) {
  if (list.length <= 2) return list;
  const out = [list[0]];
  const seen = new Uint8Array(list.length);
  seen[0] = 1;
  for (let step = 1 << 30; step >= 1; step >>= 1) {
    for (let i = step - 1; i < list.length; i += step) if (!seen[i]) { seen[i] = 1; out.push(list[i]); }
  }
  return out;
}

module.exports = { spread };
