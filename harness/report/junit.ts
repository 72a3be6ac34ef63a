import type { Finding } from '../checks/types.js';
import { groupHeading, runChangeGroups } from '../snapshot/change-groups.js';
import type { FileVerdict } from '../snapshot/store.js';
import { renderDiff } from '../text/diff.js';
import { isFailing, type PairResult } from './outcome.js';

/** Code points XML 1.0 forbids in a document (its `Char` production), lone surrogates included. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITY: Readonly<Record<string, string>> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Element text: markup escaped, every character XML 1.0 cannot hold shown as U+FFFD, CR kept as CR. */
const xml = (text: string) => text.replace(NOT_XML_CHAR, '\uFFFD').replace(/[<>&"\r]/g, (c) => ENTITY[c]!);
/** An attribute value: as element text, and tabs and line ends kept (a parser would fold them to spaces). */
const xmlAttr = (text: string) => xml(text).replace(/[\t\n]/g, (c) => ENTITY[c]!);

/**
 * JUnit XML: one test case per scenario × runtime, grouped by scenario. A change shared by several files, or
 * a finding several pairs share (the stubs of one SDK rejected on every Python runtime), is written out in the
 * first case that has it; the others name it, so a CI page shows each once.
 */
export function junitXml(results: readonly PairResult[], obsolete: readonly string[]): string {
  const groups = runChangeGroups(results.filter((r) => r.status !== 'updated'));
  const groupOf = new Map(groups.flatMap((g) => g.paths.map((path) => [path, g] as const)));
  const written = new Set<number>();
  const change = (v: FileVerdict, owner: string): string => {
    const group = groupOf.get(v.path);
    if (!group) return v.reason ?? (v.diff ? renderDiff(v.diff, false) : `${v.status}: ${v.path}`);
    if (written.has(group.number))
      return `${v.status}: snapshots/${v.path} — change ${group.number}, shown in ${group.paths[0]!.split('/').slice(0, 2).join(' × ')}`;
    written.add(group.number);
    const body = group.diff ? `\n${renderDiff(group.diff, false)}` : '';
    return `change ${group.number} (shown once for ${owner}): ${groupHeading(group)}${body}`;
  };
  const findingOwner = new Map<string, string>();
  const finding = (f: Finding, owner: string): string => {
    const text = `${f.check}: ${f.message}`;
    const first = findingOwner.get(text);
    if (first !== undefined) return `${f.check}: the same ${f.severity === 'note' ? 'note' : 'finding'} as in ${first}`;
    findingOwner.set(text, owner);
    return text;
  };
  const suites = [...new Set(results.map((r) => r.scenario))].map((scenario) => {
    const cases = results.filter((r) => r.scenario === scenario);
    const body = cases.map((r) => {
      const seconds = (
        (r.times.assembly + (r.times.boot ?? 0) + r.times.model + r.times.runtime + r.times.checks) /
        1000
      ).toFixed(3);
      const open = `    <testcase classname="${xmlAttr(scenario)}" name="${xmlAttr(r.runtime)}" time="${seconds}">`;
      if (r.status === 'skipped') return `${open}<skipped message="${xmlAttr(r.reason ?? '')}"/></testcase>`;
      if (!isFailing(r.status)) return `${open}</testcase>`;
      const owner = `${r.scenario} × ${r.runtime}`;
      // What failed leads: the reason, the errors, the changes; notes (a below-floor interpreter's) come last.
      const details = [
        r.reason,
        ...r.findings.filter((f) => f.severity !== 'note').map((f) => finding(f, owner)),
        ...r.verdicts.filter((v) => v.status !== 'same').map((v) => change(v, owner)),
        ...r.findings.filter((f) => f.severity === 'note').map((f) => finding(f, owner)),
      ]
        .filter(Boolean)
        .join('\n');
      return `${open}<failure message="${xmlAttr(r.status)}">${xml(details)}</failure></testcase>`;
    });
    const failures = cases.filter((r) => isFailing(r.status)).length;
    const skipped = cases.filter((r) => r.status === 'skipped').length;
    return `  <testsuite name="${xmlAttr(scenario)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">\n${body.join('\n')}\n  </testsuite>`;
  });
  if (obsolete.length > 0) {
    suites.push(
      `  <testsuite name="obsolete snapshots" tests="1" failures="1">\n    <testcase classname="snapshots" name="obsolete"><failure message="obsolete">${xml(obsolete.join('\n'))}</failure></testcase>\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="concord gate">\n${suites.join('\n')}\n</testsuites>\n`;
}
