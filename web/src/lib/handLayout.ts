// Where each card of the hand goes: overlapping rows, as many as it takes for every card to
// keep an uncovered strip at least `minTarget` px wide (a finger's tap target), with a gap
// between the groups of the grouped order (xếp bài). Pure: the component only places cards.

export interface Place {
  x: number;
  y: number;
}

export interface HandLayout {
  cardW: number;
  cardH: number;
  /** The height the hand takes, lifted cards included. */
  height: number;
  places: Place[];
  /** The narrowest uncovered strip of a card (the last card of a row shows whole). */
  target: number;
}

/** The room a card is lifted by when selected. */
export const LIFT = 16;
/** The narrowest tap target wanted (the browser test asks for 40 px). */
export const MIN_TARGET = 44;

/** Cards `n` in `width` px; `gapBefore` holds the indices that start a new group. */
export function layoutHand(n: number, width: number, gapBefore: ReadonlySet<number> = new Set(), minTarget = MIN_TARGET): HandLayout {
  const cardW = Math.min(84, Math.max(52, width / 6.2));
  const cardH = cardW * 1.4;
  const gapW = Math.round(cardW * 0.22);
  const rowsFor = (rows: number) => {
    const per = Math.ceil(n / rows);
    const out: number[][] = [];
    for (let i = 0; i < n; i += per) out.push(Array.from({ length: Math.min(per, n - i) }, (_, k) => i + k));
    return out;
  };
  const gapsIn = (row: number[]) => row.filter((i, k) => k > 0 && gapBefore.has(i)).length;
  const stepOf = (row: number[]) =>
    row.length <= 1 ? cardW : Math.min(Math.max(cardW * 0.78, minTarget), (width - cardW - gapsIn(row) * gapW) / (row.length - 1));
  let rows = rowsFor(1);
  for (let r = 1; r <= Math.max(1, n); r++) {
    rows = rowsFor(r);
    if (Math.min(...rows.map(stepOf)) >= minTarget) break;
  }
  const rowOffset = Math.round(cardH * 0.6);
  const places: Place[] = [];
  let target = Infinity;
  rows.forEach((row, r) => {
    const step = stepOf(row);
    if (row.length > 1) target = Math.min(target, step);
    const used = (row.length - 1) * step + gapsIn(row) * gapW + cardW;
    let x = Math.max(0, (width - used) / 2);
    row.forEach((i, k) => {
      if (k > 0) x += step + (gapBefore.has(i) ? gapW : 0);
      places[i] = { x, y: LIFT + r * rowOffset };
    });
  });
  const height = LIFT + Math.max(0, rows.length - 1) * rowOffset + cardH + 2;
  return { cardW, cardH, height, places, target: target === Infinity ? cardW : target };
}
