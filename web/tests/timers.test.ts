import { describe, expect, it } from "vitest";
import { backoff, fraction, remaining, Skew } from "../src/lib/timers";

describe("timers", () => {
  it("counts down from the deadline, never below 0 nor above the timer's length", () => {
    expect(remaining(1000, 10, 995_000)).toBe(5);
    expect(remaining(1000, 10, 1_001_000)).toBe(0);
    expect(remaining(1000, 10, 900_000)).toBe(10);
    expect(fraction(1000, 10, 997_500)).toBeCloseTo(0.25);
    expect(fraction(1000, 0, 997_500)).toBe(0);
  });
  it("corrects the page's clock by the table's, from the freshest timer", () => {
    const skew = new Skew();
    // The table's clock is 60 s ahead: a 10 s timer set now ends at page time + 70 s.
    skew.observe(1070, 10, 1_000_000);
    // A timer replayed after a resume was set long ago: it must not pull the estimate down.
    skew.observe(900, 10, 1_000_100);
    expect(skew.ms).toBe(60_000);
    expect(remaining(1070, 10, 1_000_000, skew.ms)).toBe(10);
    expect(remaining(1070, 10, 1_004_000, skew.ms)).toBe(6);
    skew.reset();
    expect(skew.ms).toBe(0);
  });
  it("waits longer after each failed reconnection, up to 8 s", () => {
    expect([0, 1, 2, 3, 4, 10].map(backoff)).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });
});
