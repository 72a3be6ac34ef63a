/**
 * Starts a run's time budget: `expire` is called once `ms` have passed and the host has read what reached it
 * by then. Returns the function that cancels it.
 *
 * A host whose event loop was held past the deadline by other work (a loaded machine, a synchronous step of
 * the same process) runs its due timers before it reads the I/O that arrived meanwhile. Without one more turn
 * of the loop, a program that finished within its budget would be reported as over it, and how busy the
 * machine was would change a transcript.
 */
export function startBudget(ms: number, expire: () => void): () => void {
  let turn: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    turn = setImmediate(expire);
  }, ms);
  return () => {
    clearTimeout(timer);
    if (turn !== undefined) clearImmediate(turn);
  };
}
