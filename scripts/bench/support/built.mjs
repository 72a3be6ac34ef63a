// What every bench suite shares. This folder holds no suite: `npm run bench` runs the .mjs files of scripts/bench/
// only.

const dist = new URL('../../../dist/', import.meta.url);

/** A module of the build (`npm run bench` builds first), by its path below dist/. */
export const built = (relative) => import(new URL(relative, dist).href);

/** The middle value (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The median time in ms of `runs` calls of the synchronous `fn`. */
export function medianMs(fn, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return median(times);
}
