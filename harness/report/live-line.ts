/** What one running pair is doing, told as it goes: each phase it enters, then its end. */
export interface PairActivity {
  /** What the pair waits for now, in words that finish "waiting for …" ("the app to boot"). */
  phase(what: string): void;
  end(): void;
}

/** Where a command tells what its pairs are doing; the gate begins one activity per pair it runs. */
export interface Activity {
  begin(pair: string): PairActivity;
}

/** An activity nobody watches: off a terminal, and in CI, where a line rewritten in place only clutters the log. */
export const UNWATCHED: Activity = { begin: () => ({ phase() {}, end() {} }) };

/** How long a pair runs before the live line also says what it waits for. */
export const SAY_WAIT_AFTER_MS = 10_000;

interface Running {
  pair: string;
  since: number;
  waitingFor: string | undefined;
}

interface LiveLineOptions {
  now?: () => number;
  /** Calls `draw` every `ms` until the returned function is called. */
  every?: (draw: () => void, ms: number) => () => void;
}

const CLEAR = '\r\x1b[2K';

const everyInterval = (draw: () => void, ms: number): (() => void) => {
  const timer = setInterval(draw, ms);
  // The line never holds a command that has finished open.
  timer.unref();
  return () => clearInterval(timer);
};

/** The running pairs as one line of at most `width` columns: each with its elapsed time, and its wait past 10 s. */
export function liveText(running: readonly Running[], now: number, width: number): string {
  const parts = running.map(({ pair, since, waitingFor }) => {
    const elapsed = now - since;
    const wait = elapsed >= SAY_WAIT_AFTER_MS && waitingFor !== undefined ? `: waiting for ${waitingFor}` : '';
    return `${pair} ${Math.floor(elapsed / 1000)} s${wait}`;
  });
  const text = `… ${parts.join(' · ')}`;
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/**
 * A line at the bottom of a terminal, rewritten in place twice a second, showing the pairs that are running; the
 * command's own lines are printed above it through `out`. `stop` clears it.
 */
export function liveLine(
  stream: { write(text: string): unknown; columns?: number },
  options: LiveLineOptions = {},
): { activity: Activity; out(line: string): void; stop(): void } {
  const now = options.now ?? (() => performance.now());
  const running: Running[] = [];
  let shown = false;
  const clear = () => {
    if (shown) stream.write(CLEAR);
    shown = false;
  };
  const draw = () => {
    clear();
    if (running.length === 0) return;
    // A pseudo-terminal may say it has 0 columns.
    stream.write(liveText(running, now(), (stream.columns || 80) - 1));
    shown = true;
  };
  const stopTimer = (options.every ?? everyInterval)(draw, 500);
  return {
    activity: {
      begin(pair) {
        const entry: Running = { pair, since: now(), waitingFor: undefined };
        running.push(entry);
        draw();
        return {
          phase: (what) => void (entry.waitingFor = what),
          end() {
            const at = running.indexOf(entry);
            if (at >= 0) running.splice(at, 1);
            draw();
          },
        };
      },
    },
    out(line) {
      clear();
      stream.write(`${line}\n`);
      draw();
    },
    stop() {
      stopTimer();
      running.length = 0;
      clear();
    },
  };
}
