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

/** A stream the line is drawn on, or one that shares its terminal (stderr): what others write there goes above it. */
interface Writable {
  write(...args: never[]): unknown;
}

interface LiveLineOptions {
  now?: () => number;
  /**
   * Streams that share the terminal (stderr): while the line is up, whatever anyone writes to them or to the line's
   * own stream (a plugin's log, a notice) is printed above it rather than into its row.
   */
  sharing?: readonly Writable[];
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
  const write = stream.write.bind(stream);
  let shown = false;
  // Someone else's line is half written: the line waits until it ends, rather than be drawn onto its end.
  let held = false;
  const clear = () => {
    if (shown) write(CLEAR);
    shown = false;
  };
  const draw = () => {
    clear();
    if (running.length === 0 || held) return;
    // A pseudo-terminal may say it has 0 columns.
    write(liveText(running, now(), (stream.columns || 80) - 1));
    shown = true;
  };
  const above = (text: string) => {
    held = !text.endsWith('\n');
    draw();
  };
  const release = [stream, ...(options.sharing ?? [])].map((shared) => writeAbove(shared, clear, above));
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
      write(`${line}\n`);
      draw();
    },
    stop() {
      stopTimer();
      for (const restore of release) restore();
      running.length = 0;
      clear();
    },
  };
}

/**
 * Makes every write to `shared` clear the line first, then hands `after` the text written; returns what puts
 * `shared.write` back.
 */
function writeAbove(shared: Writable, clear: () => void, after: (text: string) => void): () => void {
  const original = shared.write;
  shared.write = (...args: never[]) => {
    clear();
    const written = original.apply(shared, args);
    const chunk: unknown = args[0];
    after(typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString() : '');
    return written;
  };
  return () => {
    shared.write = original;
  };
}
