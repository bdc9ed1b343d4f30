/** Hex geometry for the boards: axial (q, r) to SVG points, pointy-top or flat-top. */

export type Point = [number, number];
export type Orientation = 'pointy' | 'flat';

export function centre(q: number, r: number, size: number, orientation: Orientation): Point {
  const s3 = Math.sqrt(3);
  return orientation === 'pointy'
    ? [size * s3 * (q + r / 2), size * 1.5 * r]
    : [size * 1.5 * q, size * s3 * (r + q / 2)];
}

/** The six corners, clockwise; pointy-top starts at the top (N), flat-top at the east. */
export function corners([x, y]: Point, size: number, orientation: Orientation): Point[] {
  const start = orientation === 'pointy' ? -90 : 0;
  return Array.from({ length: 6 }, (_, i): Point => {
    const angle = ((start + 60 * i) * Math.PI) / 180;
    return [x + size * Math.cos(angle), y + size * Math.sin(angle)];
  });
}

export function points(list: Point[]): string {
  return list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
}

/** The bounding viewBox of these centres, with room for a hex around each. */
export function viewBox(centres: Point[], size: number): string {
  if (centres.length === 0) return `${-size} ${-size} ${2 * size} ${2 * size}`;
  const xs = centres.map((p) => p[0]);
  const ys = centres.map((p) => p[1]);
  const pad = size * 1.2;
  const x0 = Math.min(...xs) - pad;
  const y0 = Math.min(...ys) - pad;
  return `${x0.toFixed(0)} ${y0.toFixed(0)} ${(Math.max(...xs) + pad - x0).toFixed(0)} ${(Math.max(...ys) + pad - y0).toFixed(0)}`;
}
