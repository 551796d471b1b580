'use strict';
// The benchmark's key layouts now live in test/generators/ (shared with the tests); kept
// here so existing imports of bench/layouts.js go on working.
module.exports = require('../test/generators/layouts');
