import { readdirSync, readFileSync } from 'node:fs';

/** The close-on-exec bit of `flags:` in /proc/self/fdinfo/N (octal, as the kernel prints it). */
const O_CLOEXEC = 0o2000000;

/**
 * The descriptors above 2 that this process would hand to every child it starts: those open without
 * close-on-exec. Node opens its own with close-on-exec, so these are what the caller left open (a CI
 * shell's `exec 200>>file`, a test runner's channel). A child that must not hold them closes exactly these
 * numbers first: its own descriptors cannot have taken a number still held by an inherited one.
 * Empty where /proc is not there.
 */
export function inheritableDescriptors(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2) continue;
    try {
      const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      if (flags !== undefined && (parseInt(flags, 8) & O_CLOEXEC) === 0) found.push(fd);
    } catch {
      // Closed since it was listed (the listing's own descriptor among them).
    }
  }
  return found.sort((a, b) => a - b);
}
