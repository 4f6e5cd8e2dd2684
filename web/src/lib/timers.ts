// Timers: the table sends a deadline on its own clock (seconds since 1970) and how long the
// timer ran for. The page shows what is left on its own clock, corrected by the skew between
// the two clocks as seen on messages just received.

/** An estimate of (table clock - page clock) in ms: the largest of (set time - receive time)
 * over fresh timers is the closest to the truth (older messages, replayed after a resume,
 * give smaller values; network delay makes every value a little small). */
export class Skew {
  private best: number | null = null;

  observe(deadline: number, seconds: number, receivedMs: number): void {
    const estimate = (deadline - seconds) * 1000 - receivedMs;
    if (this.best === null || estimate > this.best) this.best = estimate;
  }

  get ms(): number {
    return this.best ?? 0;
  }

  reset(): void {
    this.best = null;
  }
}

/** Seconds left of a timer, from 0 to its length. */
export function remaining(deadline: number, seconds: number, nowMs: number, skewMs = 0): number {
  const left = deadline - (nowMs + skewMs) / 1000;
  return Math.min(seconds, Math.max(0, left));
}

/** The share of a timer left, 0 to 1, for a bar. */
export function fraction(deadline: number, seconds: number, nowMs: number, skewMs = 0): number {
  return seconds > 0 ? remaining(deadline, seconds, nowMs, skewMs) / seconds : 0;
}

/** How long to wait before reconnecting after `failures` failed tries: 0.5 s doubling, at
 * most 8 s. */
export function backoff(failures: number): number {
  return Math.min(8000, 500 * 2 ** Math.max(0, failures));
}
