'use strict';
// An estimate of what a listing's objects cost to store for a month, per storage class,
// from a price table: the built-in one (S3 list prices for one region, with where and when
// they were read) or a JSON file of the same shape (--prices FILE). An estimate: tiers are
// applied to this listing alone, not to the account's total, and retrieval, requests,
// transfer and minimum storage durations are left out.
const fs = require('fs');
const { UsageError } = require('../errors');

const GiB = 2 ** 30;
// Objects below this size are billed as this size in the classes marked minObject, and pay
// no monitoring fee in Intelligent-Tiering (S3's rule for all of them).
const SMALL_OBJECT = 128 * 1024;

// USD per GB-month (GB = 2^30 bytes, as S3 bills), us-east-1, from the S3 pricing page.
// A number, or tiers [[up to GB, price], ..., [null, price]] applied to the class's bytes.
const BUILT_IN = {
  region: 'us-east-1',
  currency: 'USD',
  source: 'https://aws.amazon.com/s3/pricing/',
  date: '2025-06',
  classes: {
    STANDARD: { perGBMonth: [[51200, 0.023], [512000, 0.022], [null, 0.021]] },
    // Priced at the Frequent Access tier: a listing does not say which tier an object is in.
    INTELLIGENT_TIERING: { perGBMonth: [[51200, 0.023], [512000, 0.022], [null, 0.021]], objectFeePer1000: 0.0025 },
    STANDARD_IA: { perGBMonth: 0.0125, minObject: true },
    ONEZONE_IA: { perGBMonth: 0.01, minObject: true },
    GLACIER_IR: { perGBMonth: 0.004, minObject: true },
    // Every archived object also keeps 32 KiB at the archive's price and 8 KiB at STANDARD's.
    GLACIER: { perGBMonth: 0.0036, overheadBytes: 32768, standardOverheadBytes: 8192 },
    DEEP_ARCHIVE: { perGBMonth: 0.00099, overheadBytes: 32768, standardOverheadBytes: 8192 },
    EXPRESS_ONEZONE: { perGBMonth: 0.11 },
    // A legacy class, no longer on the pricing page: its last published price.
    REDUCED_REDUNDANCY: { perGBMonth: 0.024 },
  },
};

function checkTable(t, where) {
  const bad = (why) => new UsageError(`${where}: ${why}`);
  if (!t || typeof t !== 'object' || !t.classes || typeof t.classes !== 'object') throw bad('a price table needs "classes": {"STANDARD": {"perGBMonth": 0.023}, ...}');
  for (const [name, c] of Object.entries(t.classes)) {
    const p = c && c.perGBMonth;
    const ok = typeof p === 'number' ? p >= 0 : Array.isArray(p) && p.length > 0 && p.every((tier, i) => Array.isArray(tier) && tier.length === 2 &&
      typeof tier[1] === 'number' && tier[1] >= 0 && (tier[0] === null ? i === p.length - 1 : typeof tier[0] === 'number' && tier[0] > 0));
    if (!ok) throw bad(`class ${name}: "perGBMonth" must be a price or tiers [[upToGB, price], ..., [null, price]]`);
    if (Array.isArray(p) && p[p.length - 1][0] !== null) throw bad(`class ${name}: the last tier must be [null, price]`);
  }
  return t;
}

// The price table of --prices FILE (or the built-in one), checked.
function loadPrices(prices) {
  if (prices === undefined || prices === null) return BUILT_IN;
  if (typeof prices === 'object') return checkTable(prices, '--prices');
  let text;
  try { text = fs.readFileSync(prices, 'utf8'); } catch (err) { throw new UsageError(`--prices ${prices}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`); }
  let t;
  try { t = JSON.parse(text); } catch (err) { throw new UsageError(`--prices ${prices}: not JSON (${err.message})`); }
  return checkTable(t, `--prices ${prices}`);
}

function monthly(perGBMonth, bytes) {
  const gb = bytes / GiB;
  if (typeof perGBMonth === 'number') return gb * perGBMonth;
  let usd = 0, from = 0;
  for (const [upTo, price] of perGBMonth) {
    const top = upTo === null ? Infinity : upTo;
    if (gb > from) usd += (Math.min(gb, top) - from) * price;
    from = top;
  }
  return usd;
}

/**
 * classes: [{name, objects, bytes, smallObjects, smallBytes}] (small: below 128 KiB).
 * The table's estimate per class, and the total of the classes it has a price for.
 */
function storageCost(classes, table) {
  const rows = [];
  let total = 0, standardExtra = 0;
  for (const c of classes) {
    const p = table.classes[c.name];
    if (!p) { rows.push({ name: c.name, billableBytes: c.bytes, usdPerMonth: null }); continue; }
    let billable = c.bytes;
    if (p.minObject) billable += c.smallObjects * SMALL_OBJECT - c.smallBytes;
    if (p.overheadBytes) billable += c.objects * p.overheadBytes;
    if (p.standardOverheadBytes) standardExtra += c.objects * p.standardOverheadBytes;
    let usd = monthly(p.perGBMonth, billable);
    if (p.objectFeePer1000) usd += ((c.objects - c.smallObjects) / 1000) * p.objectFeePer1000;
    rows.push({ name: c.name, billableBytes: billable, usdPerMonth: round(usd) });
    total += usd;
  }
  // Archive metadata at STANDARD's price, added to the STANDARD row (or a row of its own).
  if (standardExtra && table.classes.STANDARD) {
    let row = rows.find((r) => r.name === 'STANDARD');
    const std = classes.find((c) => c.name === 'STANDARD');
    const before = std ? monthly(table.classes.STANDARD.perGBMonth, row.billableBytes) : 0;
    if (!row) { row = { name: 'STANDARD', billableBytes: 0, usdPerMonth: 0 }; rows.push(row); }
    row.billableBytes += standardExtra;
    const after = monthly(table.classes.STANDARD.perGBMonth, row.billableBytes);
    row.usdPerMonth = round((row.usdPerMonth || 0) + after - before);
    total += after - before;
  }
  return {
    region: table.region || null, currency: table.currency || 'USD', source: table.source || null, date: table.date || null,
    usdPerMonth: round(total), classes: rows,
  };
}

const round = (x) => Number(x.toFixed(6));

module.exports = { storageCost, loadPrices, BUILT_IN, SMALL_OBJECT, monthly };
