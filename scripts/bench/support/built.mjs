// What every bench suite shares. This folder holds no suite: `npm run bench` runs the .mjs files of scripts/bench/
// only.

const dist = new URL('../../../dist/', import.meta.url);

/** A module of the build (`npm run bench` builds first), by its path below dist/. */
export const built = (relative) => import(new URL(relative, dist).href);

/** The middle value (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
