/** A lattice point: x to the right, y up (the map's last line is y = 0). */
export type Point = readonly [number, number];

/** Twice the signed area of (a, b, c): positive when c is left of a→b (counter-clockwise, y up). */
export function orient2d(a: Point, b: Point, c: Point): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
}

/**
 * Whether segments a–b and c–d cross properly: each strictly separates the other's ends. Sharing or
 * touching an endpoint, or lying on the same line, is not a crossing (connections may meet at lighthouses).
 */
export function segmentsCross(a: Point, b: Point, c: Point, d: Point): boolean {
  return orient2d(a, b, c) * orient2d(a, b, d) < 0 && orient2d(c, d, a) * orient2d(c, d, b) < 0;
}

/** Whether p lies exactly on the closed segment a–b (collinear and inside its bounding box). */
export function onSegment(a: Point, b: Point, p: Point): boolean {
  return (
    orient2d(a, b, p) === 0 && p[0] >= Math.min(a[0], b[0]) && p[0] <= Math.max(a[0], b[0]) && p[1] >= Math.min(a[1], b[1]) && p[1] <= Math.max(a[1], b[1])
  );
}

/**
 * The lattice points of a triangle under the top-left fill rule, so two triangles sharing an edge never
 * both count a point on it. The vertices are put in counter-clockwise order first, so the result does not
 * depend on the order they are given in. A degenerate (flat) triangle has no points.
 */
export function rasterizeTriangle(p0: Point, p1: Point, p2: Point): [number, number][] {
  let [v0, v1] = [p0, p1];
  const v2 = p2;
  const area = orient2d(v0, v1, v2);
  if (area === 0) return []; // cannot happen in play: a connection never passes through a lighthouse
  if (area < 0) [v0, v1] = [v1, v0];
  const edges: [Point, Point][] = [
    [v1, v2],
    [v2, v0],
    [v0, v1],
  ];
  // Top edge: horizontal, running right to left; left edge: running downwards (counter-clockwise, y up).
  const bias = edges.map(([a, b]) => ((a[1] === b[1] && a[0] > b[0]) || a[1] > b[1] ? 0 : -1));
  const out: [number, number][] = [];
  const [xs, ys] = [
    [v0[0], v1[0], v2[0]],
    [v0[1], v1[1], v2[1]],
  ];
  for (let y = Math.min(...ys); y <= Math.max(...ys); y++) {
    for (let x = Math.min(...xs); x <= Math.max(...xs); x++) {
      if (edges.every(([a, b], i) => orient2d(a, b, [x, y]) + bias[i]! >= 0)) out.push([x, y]);
    }
  }
  return out;
}
