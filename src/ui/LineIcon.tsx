/** A decorative line icon on the 24-unit grid, drawn in the text colour (hidden from assistive technology). */
export function LineIcon({
  size,
  path,
  strokeWidth,
  linecap,
  linejoin,
}: {
  /** Its width and height in pixels. */
  size: number;
  /** The path's `d`. */
  path: string;
  strokeWidth: number;
  linecap?: 'round';
  linejoin?: 'round';
}) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <path
        d={path}
        fill="none"
        stroke="currentColor"
        strokeWidth={strokeWidth}
        strokeLinecap={linecap}
        strokeLinejoin={linejoin}
      />
    </svg>
  );
}
