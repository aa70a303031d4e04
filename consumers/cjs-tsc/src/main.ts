import { smoke } from './smoke';

smoke().then(
  (run) => console.log(`smoke ok: ${run.text}`),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
