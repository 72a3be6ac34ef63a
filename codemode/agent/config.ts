/** Config of the agent plugin, as written in a `cordis.yml` entry. */
export interface AgentConfig {
  /** The persona section of the system prompt. */
  persona: string;
  /** Model turns allowed before a run fails for want of a final answer. */
  maxTurns: number;
}

export const DEFAULT_MAX_TURNS = 10;

/** Checks a raw `cordis.yml` config; every problem is named with its key. */
export function parseAgentConfig(raw: unknown): AgentConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error(`agent: config must be an object like { persona: "…" }, got ${JSON.stringify(raw)}`);
  }
  const problems: string[] = [];
  for (const key of Object.keys(raw)) {
    if (key !== 'persona' && key !== 'maxTurns') problems.push(`unknown key "${key}" (known: persona, maxTurns)`);
  }
  const { persona, maxTurns = DEFAULT_MAX_TURNS } = raw as Record<string, unknown>;
  if (typeof persona !== 'string' || persona.trim() === '') problems.push('persona must be a non-empty string');
  if (!Number.isSafeInteger(maxTurns) || (maxTurns as number) < 1) {
    problems.push(`maxTurns must be a whole number of at least 1, got ${JSON.stringify(maxTurns)}`);
  }
  if (problems.length > 0) throw new Error(`agent: bad config: ${problems.join('; ')}`);
  return { persona: persona as string, maxTurns: maxTurns as number };
}
