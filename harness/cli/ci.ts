/** Whether the `CI` variable asks for CI behaviour: set, and not `false` or `0`. */
export function ciIsSet(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.CI) && env.CI !== 'false' && env.CI !== '0';
}
