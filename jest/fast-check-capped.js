// For mutation runs only (jest.mutate.config.js maps 'fast-check' here): fast-check with every
// property capped at FC_MAX_RUNS runs, so a night's Stryker run covers every module. A mutant
// a property catches only after more runs than the cap is reported as surviving, never hidden.
// The real module's path comes from jest.mutate.config.js: inside Jest, resolving 'fast-check'
// would give this file back (moduleNameMapper applies to require.resolve too).
const fc = require(process.env.FC_MODULE_PATH);

const cap = Number(process.env.FC_MAX_RUNS ?? 100);
const capped = (property, params = {}) => fc.assert(property, { ...params, numRuns: Math.min(params.numRuns ?? 100, cap) });

module.exports = { ...fc, assert: capped, default: { ...fc.default, assert: capped } };
