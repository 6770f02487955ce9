/**
 * The quote chart: an SVG path through a price history, drawn inside a small box. Pure, so the
 * chart needs no library and its geometry is tested.
 */

/** Width and height of the chart's viewBox; the SVG scales it to its box. */
export const SPARKLINE_WIDTH = 100;
export const SPARKLINE_HEIGHT = 32;

/**
 * The `d` attribute of a polyline through `prices` (oldest first), spread evenly across the
 * width, the lowest price at the bottom and the highest at the top. Prices that do not parse
 * are skipped; fewer than two usable prices give '' (nothing to draw). A flat history is drawn
 * across the middle. Never throws.
 */
export function sparklinePath(
  prices: readonly string[],
  width = SPARKLINE_WIDTH,
  height = SPARKLINE_HEIGHT,
): string {
  const values = prices.map(Number).filter((value) => Number.isFinite(value));
  if (values.length < 2) return '';
  const min = Math.min(...values);
  const max = Math.max(...values);
  const step = width / (values.length - 1);
  const round = (value: number) => Math.round(value * 100) / 100;
  return values
    .map((value, index) => {
      const y = max === min ? height / 2 : height - ((value - min) / (max - min)) * height;
      return `${index === 0 ? 'M' : 'L'}${round(index * step)} ${round(y)}`;
    })
    .join(' ');
}

/** The direction of a change percent such as '+1.25' or '-0.50': up, down or flat. Pure. */
export function trendOf(changePercent: string): 'up' | 'down' | 'flat' {
  const value = Number(changePercent);
  if (!Number.isFinite(value) || value === 0) return 'flat';
  return value > 0 ? 'up' : 'down';
}
