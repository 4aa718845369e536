// About 300 lines, whole: one renderer, whose scene is made from a live public frame or from a full state.
/** The lighthouses board on a canvas: island and energy, lighthouses, links, triangles, players (live: the island and lighthouses only); y grows upward. */
import type { LighthousesState } from '../../../src/games/lighthouses/rules.js';
import { cellOfPoint, fitCanvas, gridLayout, seatColour, THEME } from './draw.js';
import type { Cell, Frame, MatchSetupInfo, Renderer } from './types.js';

/** What a spectator gets while a match is live (the game's `spectator.frame`): the island and its lighthouses, no players. */
export interface LighthousesPublicFrame {
  round: number;
  /** the map's size and land (`island[y][x]`, 1 land); absent in frames from a server before they were added */
  width?: number;
  height?: number;
  island?: number[][];
  lighthouses: { position: [number, number]; owner: number | null; energy: number }[];
  connections: [number, number][];
}

/** One lighthouse as the drawing needs it. */
interface Light {
  x: number;
  y: number;
  owner: number | null;
  energy: number;
}

/** What both kinds of frame are turned into before drawing. */
interface Scene {
  width: number;
  height: number;
  island: number[][] | null;
  energy: number[][] | null;
  lights: Light[];
  connections: [number, number][];
  /** triangles as lighthouse indices and owner */
  triangles: { v: readonly number[]; owner: number }[];
  players: { x: number; y: number; energy: number; score: number; name: string }[];
  caption: string;
}

const SEA = '#0a1f36';
const LEGEND_ROW = 18;

// Cell energy 0..100 in 21 shades from a slate grey (empty island, apart from the sea) to a warm yellow.
const SHADES = 20;
const ENERGY = Array.from({ length: SHADES + 1 }, (_, k) => {
  const t = Math.sqrt(k / SHADES);
  const mix = (a: number, b: number) => Math.round(a + (b - a) * t);
  return `rgb(${mix(0x33, 0x9a)},${mix(0x3b, 0x86)},${mix(0x45, 0x2e)})`;
});

function sceneOfState(s: LighthousesState): Scene {
  const caption = s.round > s.rounds ? `after round ${s.rounds}` : `round ${s.round} of ${s.rounds}`;
  return {
    width: s.width,
    height: s.height,
    island: s.island,
    energy: s.energy,
    lights: s.lighthouses,
    connections: s.connections,
    triangles: s.triangles,
    players: s.players,
    caption,
  };
}

/**
 * The public frame: the island without cell energies or players, and the triangles worked out from the links
 * (the rules make one whenever a link closes three mutual links). A frame without the map gets the box
 * around the lighthouses.
 */
function sceneOfPublic(f: LighthousesPublicFrame): Scene {
  const lights = f.lighthouses.map((l) => ({ x: l.position[0], y: l.position[1], owner: l.owner === -1 ? null : l.owner, energy: l.energy }));
  const linked = new Set(f.connections.map(([a, b]) => `${Math.min(a, b)},${Math.max(a, b)}`));
  const has = (a: number, b: number) => linked.has(`${Math.min(a, b)},${Math.max(a, b)}`);
  const triangles: Scene['triangles'] = [];
  for (const [a, b] of f.connections) {
    for (let c = Math.max(a, b) + 1; c < lights.length; c++) {
      const owner = lights[a]!.owner;
      if (owner !== null && has(a, c) && has(b, c)) triangles.push({ v: [a, b, c], owner });
    }
  }
  if (f.island && typeof f.width === 'number' && typeof f.height === 'number') {
    const caption = `round ${f.round} · players and cell energy hidden while live`;
    return { width: f.width, height: f.height, island: f.island, energy: null, lights, connections: f.connections, triangles, players: [], caption };
  }
  const width = Math.max(3, ...lights.map((l) => l.x + 2));
  const height = Math.max(3, ...lights.map((l) => l.y + 2));
  return {
    width,
    height,
    island: null,
    energy: null,
    lights,
    connections: f.connections,
    triangles,
    players: [],
    caption: `round ${f.round} · island and players hidden while live`,
  };
}

/** A renderer for lighthouses frames (whole states, or spectators' public frames). */
export function createLighthousesRenderer(): Renderer {
  let canvas: HTMLCanvasElement | null = null;
  let setup: MatchSetupInfo | null = null;
  let layout: { size: number; left: number; top: number; cols: number; rows: number } | null = null;

  function draw(frame: Frame, highlight: readonly Cell[] = []): void {
    if (!canvas) return;
    const { ctx, width, height } = fitCanvas(canvas);
    ctx.fillStyle = THEME.background;
    ctx.fillRect(0, 0, width, height);
    const scene = frame.state
      ? sceneOfState(frame.state as LighthousesState)
      : frame.publicFrame
        ? sceneOfPublic(frame.publicFrame as LighthousesPublicFrame)
        : null;
    if (!scene) return;
    const seats = setup?.seats ?? [];
    const nLegend = Math.max(seats.length, scene.players.length);
    // The legend goes under the board when it leaves the board most of the box; else only the caption does.
    const legendRows = height > 200 ? Math.ceil(nLegend / 2) : 0;
    const bottom = LEGEND_ROW * (legendRows + 1) + 4;
    const g = gridLayout(width, height - bottom, scene.width, scene.height);
    layout = { ...g, cols: scene.width, rows: scene.height };
    const { size, left, top } = g;
    // Screen position of a game cell's top-left corner and centre: row 0 of the map is at the bottom.
    const sx = (x: number) => left + x * size;
    const sy = (y: number) => top + (scene.height - 1 - y) * size;
    const cx = (x: number) => sx(x) + size / 2;
    const cy = (y: number) => sy(y) + size / 2;

    ctx.fillStyle = SEA;
    ctx.fillRect(left, top, size * scene.width, size * scene.height);
    if (scene.island) {
      // One path per shade: a few fills instead of one per cell. Without energies (live) the land is all one shade.
      const energy = scene.energy;
      const gap = size > 6 ? 1 : 0;
      const byShade: number[][] = ENERGY.map(() => []);
      for (let y = 0; y < scene.height; y++) {
        for (let x = 0; x < scene.width; x++) {
          if (scene.island[y]?.[x]) byShade[energy ? Math.round((Math.max(0, Math.min(100, energy[y]![x]!)) / 100) * SHADES) : 0]!.push(x, y);
        }
      }
      byShade.forEach((cells, k) => {
        if (!cells.length) return;
        ctx.fillStyle = ENERGY[k]!;
        ctx.beginPath();
        for (let i = 0; i < cells.length; i += 2) ctx.rect(sx(cells[i]!), sy(cells[i + 1]!), size - gap, size - gap);
        ctx.fill();
      });
    } else {
      // No map (a public frame from an older server): a faint grid so the lighthouses' places still read.
      ctx.strokeStyle = THEME.grid;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = 0; x <= scene.width; x++) {
        ctx.moveTo(sx(x), top);
        ctx.lineTo(sx(x), top + size * scene.height);
      }
      for (let y = 0; y <= scene.height; y++) {
        ctx.moveTo(left, top + y * size);
        ctx.lineTo(left + size * scene.width, top + y * size);
      }
      ctx.stroke();
    }

    const at = (i: number) => scene.lights[i]!;
    ctx.globalAlpha = 0.45;
    for (const t of scene.triangles) {
      ctx.fillStyle = seatColour(t.owner);
      ctx.beginPath();
      t.v.forEach((i, k) => (k ? ctx.lineTo(cx(at(i).x), cy(at(i).y)) : ctx.moveTo(cx(at(i).x), cy(at(i).y))));
      ctx.closePath();
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    const last = frame.record?.moves[0];
    const lastAction = last?.action as { command?: string; destination?: unknown } | undefined;
    ctx.lineCap = 'round';
    for (const [a, b] of scene.connections) {
      const owner = at(a).owner;
      ctx.strokeStyle = owner === null ? THEME.muted : seatColour(owner);
      ctx.lineWidth = Math.max(1.5, size * 0.14);
      ctx.beginPath();
      ctx.moveTo(cx(at(a).x), cy(at(a).y));
      ctx.lineTo(cx(at(b).x), cy(at(b).y));
      ctx.stroke();
    }

    const fontPx = Math.max(8, Math.min(14, size * 0.45));
    ctx.font = `bold ${fontPx}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const l of scene.lights) {
      const r = Math.max(3, size * 0.42);
      ctx.beginPath();
      ctx.arc(cx(l.x), cy(l.y), r, 0, 2 * Math.PI);
      ctx.fillStyle = l.owner === null ? '#3a4552' : seatColour(l.owner);
      ctx.fill();
      ctx.lineWidth = Math.max(1, size * 0.08);
      ctx.strokeStyle = THEME.text;
      ctx.stroke();
      if (size >= 16 && l.energy > 0) {
        ctx.fillStyle = '#000';
        ctx.fillText(String(l.energy), cx(l.x), cy(l.y), size * 0.8);
      }
    }

    scene.players.forEach((p, slot) => {
      // In the cell's upper-right corner, so a lighthouse's energy under it stays readable.
      const h = Math.max(3, size * 0.26);
      const [px, py] = [cx(p.x) + size * 0.3, cy(p.y) - size * 0.3];
      ctx.beginPath();
      ctx.moveTo(px, py - h);
      ctx.lineTo(px + h, py);
      ctx.lineTo(px, py + h);
      ctx.lineTo(px - h, py);
      ctx.closePath();
      ctx.fillStyle = seatColour(slot);
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = '#000';
      ctx.stroke();
    });

    // The last command: a move is an arrow into the player's cell, an attack a ring, a connect its new link.
    if (last && scene.players[last.slot]) {
      const p = scene.players[last.slot]!;
      const a = last.action as { command?: string; x?: number; y?: number } | undefined;
      ctx.strokeStyle = THEME.highlight;
      ctx.lineWidth = Math.max(1.5, size * 0.08);
      if (last.fault) {
        const d = size * 0.3;
        ctx.strokeStyle = '#ff5555';
        ctx.beginPath();
        ctx.moveTo(cx(p.x) - d, cy(p.y) - d);
        ctx.lineTo(cx(p.x) + d, cy(p.y) + d);
        ctx.moveTo(cx(p.x) + d, cy(p.y) - d);
        ctx.lineTo(cx(p.x) - d, cy(p.y) + d);
        ctx.stroke();
      } else if (a?.command === 'move' && typeof a.x === 'number' && typeof a.y === 'number' && (a.x || a.y)) {
        ctx.beginPath();
        ctx.moveTo(cx(p.x - a.x), cy(p.y - a.y));
        ctx.lineTo(cx(p.x), cy(p.y));
        ctx.stroke();
      } else if (a?.command === 'attack') {
        ctx.beginPath();
        ctx.arc(cx(p.x), cy(p.y), size * 0.62, 0, 2 * Math.PI);
        ctx.stroke();
      } else if (lastAction?.command === 'connect' && Array.isArray(lastAction.destination)) {
        const [dx, dy] = lastAction.destination as [number, number];
        ctx.setLineDash([size * 0.2, size * 0.2]);
        ctx.beginPath();
        ctx.moveTo(cx(p.x), cy(p.y));
        ctx.lineTo(cx(dx), cy(dy));
        ctx.stroke();
        ctx.setLineDash([]);
      }
    }

    ctx.strokeStyle = THEME.highlight;
    ctx.lineWidth = 2;
    for (const [x, y] of highlight) ctx.strokeRect(sx(x) + 1.5, sy(y) + 1.5, size - 3, size - 3);

    // Caption and legend under the board.
    ctx.textAlign = 'left';
    ctx.font = '12px system-ui, sans-serif';
    const ly = top + size * scene.height + 6;
    ctx.fillStyle = THEME.muted;
    ctx.fillText(
      scene.caption + (last ? ` · last: ${seats[last.slot]?.name ?? `seat ${last.slot}`} ${last.fault ? 'fault' : (lastAction?.command ?? '')}` : ''),
      left,
      ly + LEGEND_ROW / 2,
      width - left,
    );
    const colW = (width - 2 * left) / 2;
    for (let i = 0; i < legendRows * 2 && i < nLegend; i++) {
      const x = left + (i % 2) * colW;
      const y = ly + LEGEND_ROW * (1 + Math.floor(i / 2));
      ctx.fillStyle = seatColour(i);
      ctx.fillRect(x, y + 4, 10, 10);
      const p = scene.players[i];
      ctx.fillStyle = THEME.text;
      ctx.fillText(`${seats[i]?.name ?? p?.name ?? `seat ${i}`}${p ? `  ${p.score} pts · ${p.energy} energy` : ''}`, x + 14, y + LEGEND_ROW / 2 + 1, colW - 18);
    }
  }

  return {
    mount(c, info) {
      canvas = c;
      setup = info;
    },
    draw,
    cellAt(x, y) {
      if (!layout) return null;
      const cell = cellOfPoint(layout, layout.cols, layout.rows, x, y);
      return cell ? [cell[0], layout.rows - 1 - cell[1]] : null;
    },
    unmount() {
      canvas = null;
      setup = null;
      layout = null;
    },
  };
}
