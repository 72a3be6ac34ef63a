import type { PairResult, Proposal } from '../report/outcome.js';
import { writePending } from '../snapshot/pending.js';

/**
 * The changes one gate run proposes, kept in the pending folder at its end, or as soon as a step fails: a
 * snapshot that cannot be written or read (a read-only folder, a full disk, a link) must not cost the run
 * its proposals.
 */
export class RunProposals {
  readonly list: Proposal[] = [];
  private compared: readonly PairResult[] = [];

  constructor(
    private readonly pendingRoot: string,
    private readonly runId: string,
    private readonly out: (line: string) => void,
  ) {}

  /** The pairs the run compared: the newest run wins, older proposals for their folders are dropped from pending. */
  judged(pairs: readonly PairResult[]): void {
    this.compared = pairs;
  }

  /** Writes the run's proposals to the pending folder; the folder, or undefined when there were none. */
  keep(): Promise<string | undefined> {
    const compared = (path: string) =>
      this.compared.some(
        (r) => (r.verdicts.length > 0 || r.status === 'unstable') && path.startsWith(`${r.scenario}/${r.runtime}/`),
      );
    return writePending(this.pendingRoot, this.runId, this.list, compared);
  }

  /** Keeps what was proposed so far, says where, and throws `error` on. */
  async rescue(error: unknown): Promise<never> {
    const kept = await this.keep().catch(() => undefined);
    if (kept)
      this.out(
        `the proposals of this run are kept in ${kept}; accept them with \`concord review\` once the problem is fixed`,
      );
    throw error;
  }
}
