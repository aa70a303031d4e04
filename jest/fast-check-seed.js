// Jest globalSetup: one fast-check seed per run, so every run explores new inputs and a failure
// can still be replayed. FC_SEED=<n> replays a run; otherwise the seed is random. It goes to the
// workers through the environment (they start after this) and is printed once, for the CI log.
module.exports = async function chooseSeed() {
  const given = process.env.FC_SEED;
  if (given !== undefined && !/^-?\d+$/.test(given)) {
    throw new Error(`FC_SEED=${given}: expected an integer, the seed printed by the run to replay`);
  }
  const seed = given ?? String((Math.random() * 0x1_0000_0000) | 0);
  process.env.FC_SEED = seed;
  console.log(`\nfast-check seed: ${seed}${given === undefined ? ' (random; replay with FC_SEED=' + seed + ')' : ' (from FC_SEED)'}`);
};
