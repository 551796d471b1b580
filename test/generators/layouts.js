'use strict';
// Key layouts for the benchmark and the tests: the ten named layouts the lister was tuned
// on (named-layouts.js), and layouts drawn from families of bucket shapes
// (layout-families.js), which it was not.
const { LAYOUTS } = require('./named-layouts');
const { generateLayout, layoutFamilies, keyDepth, depthRange, invalidKey } = require('./layout-families');

module.exports = { LAYOUTS, generateLayout, layoutFamilies, keyDepth, depthRange, invalidKey };
