import { interpreterName } from '../interpreters/from-floor.js';
import { type SkewReport, showBare } from './measure-skew.js';

const indent = (text: string, by = '      ') => text.split('\n').join(`\n${by}`);

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => [...r[c]!].length)));
  return rows.map(
    (r) =>
      '  ' +
      r
        .map((cell, c) => cell + ' '.repeat(widths[c]! - [...cell].length))
        .join('   ')
        .trimEnd(),
  );
}

/** The human report of `concord skew`. */
export function formatSkew(report: SkewReport): string {
  const lines: string[] = [];
  lines.push(`floor: CPython ${report.floor} (Unicode ${report.floorUnicode})`);
  lines.push(`node: ${process.version}, Unicode ${report.nodeUnicode} (identifier table ${report.nodeTable})`);
  lines.push(`renderer: the app of ${report.app}`);
  lines.push('', 'interpreters:');
  if (report.interpreters.length > 0)
    lines.push(...table(report.interpreters.map((i) => [i.label, `Unicode ${i.unicode}`, i.detail])));
  for (const reason of report.absent) lines.push(`  absent: ${reason}`);

  lines.push('');
  if (report.windows.length === 0) {
    lines.push(`exposure window: none — CPython ${report.floor} knows every identifier this Node knows`);
  } else {
    lines.push(
      `exposure window: identifier code points this Node accepts and CPython ${report.floor} rejects, by the Unicode version that added them`,
    );
    const rows = [['added in', 'first CPython', 'XID_Start', 'XID_Continue', 'fixture tool']];
    for (const w of report.windows)
      rows.push([
        w.unicode,
        w.firstPython,
        String(w.xidStart),
        String(w.xidContinue),
        report.tools[report.windows.indexOf(w)]!,
      ]);
    const sum = (key: 'xidStart' | 'xidContinue') => String(report.windows.reduce((n, w) => n + w[key], 0));
    rows.push(['total', '', sum('xidStart'), sum('xidContinue'), '']);
    lines.push(...table(rows));
  }

  lines.push('');
  const floor = report.floorInterpreter;
  if (floor === undefined) {
    lines.push(`floor interpreter: none — no local python${report.floor}, no container image, no Pyodide`);
  } else {
    lines.push(`floor interpreter: ${floor.label} (${floor.detail}) — ${floor.why}`);
    if (floor.error !== undefined) lines.push(`  could not compile: ${indent(floor.error)}`);
    else if (floor.contrast !== undefined) {
      lines.push(`  reports CPython ${floor.python}, Unicode ${floor.unicode}`);
      lines.push(
        `  the fixture names written bare (contrast): ${floor.contrast === 'ok' ? 'accepted' : indent(floor.contrast)}`,
      );
    }
  }

  if (report.sdk !== undefined) {
    lines.push('', `the fixture SDK, rendered by the app, on CPython ${report.floor} and up:`);
    if (report.compiled.length === 0) lines.push('  no interpreter at or above the floor is available');
    for (const cell of report.compiled) {
      lines.push(
        `  ${interpreterName(cell)}: ${cell.outcome === 'ok' ? 'compiles' : cell.outcome === 'rejected' ? indent(cell.error!, '    ') : `could not run: ${cell.error}`}`,
      );
    }
  }

  lines.push('');
  if (report.sdk === undefined) {
    lines.push(`renderer: unknown — the app of ${report.app} sent the model no tools:sdk section`);
  } else if (report.pinned) {
    lines.push(
      `renderer: pinned to the floor ${report.floor} — every fixture name is left for subscript access and every interpreter from the floor up compiles the SDK`,
    );
  } else {
    const reasons: string[] = [];
    if (report.bareAtFloor.length > 0)
      reasons.push(
        `fixture names written as bare methods, which CPython ${report.floor} cannot read: ${showBare(report.bareAtFloor)}`,
      );
    const rejected = report.compiled.filter((c) => c.outcome === 'rejected');
    if (rejected.length > 0)
      reasons.push(
        `rejected by ${rejected.map((c) => `${c.interpreter} at line ${c.line ?? '?'}, column ${c.column ?? '?'}`).join(', ')}`,
      );
    lines.push(`renderer: NOT pinned to the floor ${report.floor} — ${reasons.join('; ')}`);
  }
  return lines.join('\n') + '\n';
}
