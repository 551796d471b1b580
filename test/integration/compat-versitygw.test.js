'use strict';
// The compatibility suite (test/helpers/compat-suite.js) against versitygw.
require('../helpers/compat-suite').compatSuite('versitygw');
