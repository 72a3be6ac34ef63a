import { describe, expect, it } from 'vitest';
import { liveLine, liveText, SAY_WAIT_AFTER_MS } from './live-line.js';

const CLEAR = '\r\x1b[2K';

/** A terminal of `columns` that keeps what was written, a clock the test moves, and a timer it fires. */
function terminal(columns = 80) {
  let written = '';
  let time = 0;
  let draw = () => {};
  let stopped = false;
  // stderr, on the same terminal as the line.
  const stderr = { write: (text: string) => (written += text) };
  const line = liveLine(
    { write: (text: string) => (written += text), columns },
    {
      sharing: [stderr],
      now: () => time,
      every: (fn) => {
        draw = fn;
        return () => (stopped = true);
      },
    },
  );
  return {
    line,
    stderr,
    tick: (ms: number) => {
      time += ms;
      draw();
    },
    take: () => {
      const text = written;
      written = '';
      return text;
    },
    stopped: () => stopped,
  };
}

describe('the live line', () => {
  it('shows each running pair with its elapsed time, and what it waits for from 10 s on (9,999 ms: not yet)', () => {
    const t = terminal(100);
    const pair = t.line.activity.begin('notes × python');
    pair.phase('the app to boot (its plugins to become active)');
    expect(t.take()).toBe('… notes × python 0 s');
    t.tick(SAY_WAIT_AFTER_MS - 1);
    expect(t.take()).toBe(`${CLEAR}… notes × python 9 s`);
    t.tick(1);
    expect(t.take()).toBe(`${CLEAR}… notes × python 10 s: waiting for the app to boot (its plugins to become active)`);
  });

  it('prints the command’s lines above it, and leaves the terminal clean when the pairs end and when stopped', () => {
    const t = terminal();
    const first = t.line.activity.begin('a × typescript');
    t.line.activity.begin('b × python');
    t.take();
    t.line.out('✓ pass     a × typescript');
    expect(t.take()).toBe(`${CLEAR}✓ pass     a × typescript\n… a × typescript 0 s · b × python 0 s`);
    first.end();
    expect(t.take()).toBe(`${CLEAR}… b × python 0 s`);
    t.line.stop();
    expect(t.take()).toBe(CLEAR);
    expect(t.stopped()).toBe(true);
    t.line.out('gate: everything agrees');
    expect(t.take()).toBe('gate: everything agrees\n');
  });

  it('moves what others write to the terminal (a notice on stderr, a plugin’s log) above it, and then lets go', () => {
    const t = terminal();
    t.line.activity.begin('a × python');
    t.take();
    t.stderr.write('concord: python runs in a local process\n');
    expect(t.take()).toBe(`${CLEAR}concord: python runs in a local process\n… a × python 0 s`);
    // A line written in two pieces: the live line waits for its end rather than be drawn onto it.
    t.stderr.write('loading');
    t.tick(500);
    t.stderr.write(' done\n');
    expect(t.take()).toBe(`${CLEAR}loading done\n… a × python 0 s`);
    t.line.stop();
    t.take();
    t.stderr.write('after\n');
    expect(t.take()).toBe('after\n');
  });

  it('stays within the terminal’s width, a column to spare', () => {
    const running = [{ pair: 'x'.repeat(100), since: 0, waitingFor: undefined }];
    expect(liveText(running, 0, 39)).toHaveLength(39);
    expect(liveText(running, 0, 39).endsWith('…')).toBe(true);
    expect(liveText([{ pair: 'ab', since: 0, waitingFor: undefined }], 0, 8)).toBe('… ab 0 s');
    expect(liveText([{ pair: 'abc', since: 0, waitingFor: undefined }], 0, 8)).toBe('… abc 0…');
  });
});
