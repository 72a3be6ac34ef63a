import type { Finding } from '../findings.js';
import type { KnownFinding } from '../project/config.js';

/**
 * The findings the project knows of (`known:` in concord.config.yml), told apart from the rest as a run goes: an error
 * whose check and text an entry names becomes a note saying why it is known, and an entry no finding of the run met is
 * said once at the end, so the list is cut when the defect it names is fixed.
 */
export class KnownFindings {
  private readonly met = new Set<KnownFinding>();

  constructor(private readonly known: readonly KnownFinding[] = []) {}

  /** `findings` with every error an entry names as a note. */
  apply(findings: readonly Finding[]): Finding[] {
    return findings.map((finding) => {
      if (finding.severity !== 'error') return finding;
      const entry = this.known.find((known) => known.check === finding.check && finding.message.includes(known.says));
      if (entry === undefined) return finding;
      this.met.add(entry);
      // Said at the end of the first line, before any excerpt of code that follows it.
      const message = finding.message.replace(/\n|$/, (end) => ` (known: ${entry.why})${end}`);
      return { ...finding, severity: 'note', message };
    });
  }

  /** A note for each entry no finding met: it may be fixed, or the run selected no pair that shows it. */
  unmet(check: string): Finding[] {
    return this.known
      .filter((entry) => !this.met.has(entry))
      .map((entry) => ({
        check,
        severity: 'note',
        message: `known: no ${entry.check} finding of this run says ${JSON.stringify(entry.says)}; once it is fixed, remove it from known: in concord.config.yml`,
      }));
  }
}
