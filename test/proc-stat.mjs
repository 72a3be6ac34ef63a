import { readFileSync } from 'node:fs';

// Plain JavaScript, so that both the test setup (TypeScript, through vitest) and the benches (run by node from
// the checkout, with no build of test helpers) read the same thing.

/**
 * CPU seconds of this process (user, system) and of the children it started and waited for (user, system; a
 * child's own children count once it waited for them), from /proc/self/stat; undefined where there is no
 * /proc (not Linux).
 */
export function processCpuSeconds() {
  let stat;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime, in clock ticks (USER_HZ, 100 per second on Linux).
  const [user, system, childrenUser, childrenSystem] = [11, 12, 13, 14].map((i) => Number(fields[i]) / 100);
  return { user, system, childrenUser, childrenSystem };
}
