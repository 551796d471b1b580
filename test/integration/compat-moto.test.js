'use strict';
// The compatibility suite (test/helpers/compat-suite.js) against moto. Its multipart uploads
// store a CRC32 of the whole object labelled as the algorithm asked for (right for CRC32,
// wrong for CRC64NVME and CRC32C), and composite SHA-256 values without their "-N".
// Its listings are slow (an `ls` of the suite's 3,300-key bucket took about 13 s there,
// about 1 s on SeaweedFS), so its bucket has half as many awkward keys, which keeps its
// suite near the others' length.
require('../helpers/compat-suite').compatSuite('moto', { wrongChecksums: ['CRC64NVME', 'CRC32C'], awkwardKeys: 1000 });
