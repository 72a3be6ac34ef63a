/** `CI` set to anything but empty, `false` or `0`: nothing under snapshots/ may be written. */
export function ciIsSet(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}
