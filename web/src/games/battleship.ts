/** Battleship in the browser: both players' waters side by side (ships when they are public), shots, and fleet or shot choices. */
import type { AskPhase } from '../../../src/core/game.js';
import { deriveSeed, rngCreate } from '../../../src/core/rng.js';
import { randomFleet } from '../../../src/games/battleship/bots.js';
import { cellsOf, fleetLengths, type BattleshipConfig, type BattleshipState, type Ship, type Strike } from '../../../src/games/battleship/rules.js';
import type { BattleshipBoard, BattleshipMessage } from '../../../src/games/battleship/wire.js';
import { fitCanvas, seatColour, THEME } from './draw.js';
import type { Cell, Choice, Frame, MatchSetupInfo, Renderer, WebGame } from './types.js';

/** What a spectator of a live match gets (`spectator.frame`): the grid's size, the shot count and each side's strikes, no fleets. */
interface PublicFrame {
  /** absent in frames from a server before they were added */
  width?: number;
  height?: number;
  shots: number;
  strikes: Strike[][];
}

const HIT = '#e5484d';
const LABEL = 30;
const MARGIN = 12;

const cellOfTarget = (target: string): Cell => target.split(',').map(Number) as unknown as Cell;

/** Where the two grids are: the cell size, each grid's left edge, and the grids' top. */
interface Layout {
  size: number;
  lefts: [number, number];
  top: number;
  cols: number;
  rows: number;
}

function layoutOf(width: number, height: number, cols: number, rows: number): Layout {
  const gap = Math.max(16, width / 30);
  const size = Math.max(1, Math.min((width - 2 * MARGIN - gap) / (2 * cols), (height - 2 * MARGIN - LABEL) / rows));
  const left = (width - (2 * cols * size + gap)) / 2;
  const top = (height - rows * size - LABEL) / 2 + LABEL;
  return { size, lefts: [left, left + cols * size + gap], top, cols, rows };
}

/**
 * The grid's size: the state's, the public frame's, or the config's; a public frame from an older server has
 * none, so it is then guessed from the shots (10 at least, the default).
 */
function sizeOf(
  state: BattleshipState | undefined,
  pub: PublicFrame | undefined,
  config: MatchSetupInfo['config'] | undefined,
  highlight: readonly Cell[],
): [number, number] {
  if (state) return [state.config.width, state.config.height];
  if (typeof pub?.width === 'number' && typeof pub.height === 'number') return [pub.width, pub.height];
  if (typeof config?.width === 'number' && typeof config.height === 'number') return [config.width, config.height];
  let cols = 10;
  let rows = 10;
  const see = ([x, y]: Cell) => {
    cols = Math.max(cols, x + 1);
    rows = Math.max(rows, y + 1);
  };
  for (const list of pub?.strikes ?? []) for (const k of list) see(cellOfTarget(k.target));
  highlight.forEach(see);
  return [cols, rows];
}

function createRenderer(): Renderer {
  let canvas: HTMLCanvasElement | null = null;
  let setup: MatchSetupInfo | null = null;
  let layout: Layout | null = null;
  // The grid under fire now (the opponent's of the player to shoot): clicks pick cells there only.
  let target = 1;

  return {
    mount(c: HTMLCanvasElement, info: MatchSetupInfo) {
      canvas = c;
      setup = info;
    },
    draw(frame: Frame, highlight: readonly Cell[] = []) {
      if (!canvas) return;
      const { ctx, width, height } = fitCanvas(canvas);
      const state = frame.state as BattleshipState | undefined;
      const pub = frame.publicFrame as PublicFrame | undefined;
      const strikes = state?.strikes ?? pub?.strikes ?? [[], []];
      const [cols, rows] = sizeOf(state, pub, setup?.config, highlight);
      const l = (layout = layoutOf(width, height, cols, rows));
      const { size, top } = l;
      // Slot 0 shoots first and they alternate (a chosen position keeps that), so the shot count says who is next.
      const toPlay = state ? state.toPlay : (pub?.shots ?? 0) % 2;
      target = 1 - toPlay;
      const over = !!state && (state.winner !== null || state.ending !== null || state.forfeit !== null);

      ctx.fillStyle = THEME.background;
      ctx.fillRect(0, 0, width, height);
      for (const owner of [0, 1]) {
        const left = l.lefts[owner]!;
        const at = (x: number, y: number) => [left + x * size, top + y * size] as const;
        const name = setup?.seats[owner]?.name ?? '';
        ctx.font = `600 ${Math.min(16, LABEL * 0.55)}px system-ui, sans-serif`;
        ctx.textBaseline = 'middle';
        ctx.fillStyle = seatColour(owner);
        ctx.fillText(`P${owner + 1} ${name}`.trim(), left, top - LABEL / 2, cols * size);
        ctx.fillStyle = THEME.board;
        ctx.fillRect(left, top, cols * size, rows * size);
        // The waters about to be shot at get a frame, so whose turn it is shows on the board.
        if (owner === target && !over) {
          ctx.strokeStyle = seatColour(toPlay);
          ctx.lineWidth = 2;
          ctx.strokeRect(left - 3, top - 3, cols * size + 6, rows * size + 6);
        }
        ctx.strokeStyle = THEME.grid;
        ctx.lineWidth = 1;
        ctx.beginPath();
        for (let x = 0; x <= cols; x++) {
          ctx.moveTo(left + x * size, top);
          ctx.lineTo(left + x * size, top + rows * size);
        }
        for (let y = 0; y <= rows; y++) {
          ctx.moveTo(left, top + y * size);
          ctx.lineTo(left + cols * size, top + y * size);
        }
        ctx.stroke();

        const shotsHere = strikes[1 - owner] ?? [];
        const hit = new Set(shotsHere.filter((k) => k.result !== '').map((k) => k.target));
        // Ships only with the whole state (after the match, or a replay); a sunk ship is drawn solid.
        for (const ship of (state?.fleets[owner] ?? []) as Ship[]) {
          const cells = cellsOf(ship);
          const sunk = cells.every(([x, y]) => hit.has(`${x},${y}`));
          const [x1, y1] = at(Math.min(ship[0], ship[2]), Math.min(ship[1], ship[3]));
          const w = (Math.abs(ship[2] - ship[0]) + 1) * size;
          const h = (Math.abs(ship[3] - ship[1]) + 1) * size;
          ctx.fillStyle = seatColour(owner);
          ctx.globalAlpha = sunk ? 0.9 : 0.45;
          ctx.beginPath();
          ctx.roundRect(x1 + size * 0.1, y1 + size * 0.1, w - size * 0.2, h - size * 0.2, size * 0.3);
          ctx.fill();
          ctx.globalAlpha = 1;
        }
        for (const k of shotsHere) {
          const [x, y] = cellOfTarget(k.target);
          const [px, py] = at(x, y);
          if (k.result === '') {
            ctx.fillStyle = THEME.muted;
            ctx.beginPath();
            ctx.arc(px + size / 2, py + size / 2, Math.max(1.5, size * 0.12), 0, 2 * Math.PI);
            ctx.fill();
            continue;
          }
          ctx.strokeStyle = HIT;
          ctx.lineWidth = Math.max(2, size * 0.14);
          ctx.lineCap = 'round';
          const d = size * 0.28;
          ctx.beginPath();
          ctx.moveTo(px + size / 2 - d, py + size / 2 - d);
          ctx.lineTo(px + size / 2 + d, py + size / 2 + d);
          ctx.moveTo(px + size / 2 + d, py + size / 2 - d);
          ctx.lineTo(px + size / 2 - d, py + size / 2 + d);
          ctx.stroke();
        }
      }

      // The last shot: an outline in the shooter's colour on the waters it hit.
      for (const m of frame.record?.phase === 'play' ? frame.record.moves : []) {
        const shot = (m.action as { shot?: [number, number] } | undefined)?.shot;
        if (!shot) continue;
        ctx.strokeStyle = seatColour(m.slot);
        ctx.lineWidth = Math.max(2, size * 0.1);
        ctx.strokeRect(l.lefts[1 - m.slot]! + shot[0] * size + 1, top + shot[1] * size + 1, size - 2, size - 2);
      }
      // Pickable cells: a small ring on the waters under fire.
      ctx.strokeStyle = THEME.highlight;
      ctx.globalAlpha = 0.45;
      ctx.lineWidth = 1;
      for (const [x, y] of highlight) {
        ctx.beginPath();
        ctx.arc(l.lefts[target]! + x * size + size / 2, top + y * size + size / 2, size * 0.22, 0, 2 * Math.PI);
        ctx.stroke();
      }
      ctx.globalAlpha = 1;
    },
    cellAt(px: number, py: number) {
      if (!layout) return null;
      const x = Math.floor((px - layout.lefts[target]!) / layout.size);
      const y = Math.floor((py - layout.top) / layout.size);
      return x >= 0 && y >= 0 && x < layout.cols && y < layout.rows ? [x, y] : null;
    },
    unmount() {
      canvas = null;
      layout = null;
    },
  };
}

/** The config a message carries (its numbers are strings on the wire). */
function configOf(b: BattleshipBoard): BattleshipConfig {
  const n = (k: keyof BattleshipBoard) => Number(b[k]);
  return {
    width: n('width'),
    height: n('height'),
    ship1: n('ship1'),
    ship2: n('ship2'),
    ship3: n('ship3'),
    ship4: n('ship4'),
    ship5: n('ship5'),
    ship6: n('ship6'),
    maxTurns: 0,
  };
}

/**
 * Two ready fleets for this seat: seeded from the game id and the seat, so the page offers the same ones each
 * time it asks (no Math.random), yet they differ from match to match.
 */
function readyFleets(v: BattleshipMessage): string[][] {
  const c = configOf(v.board);
  return ['A', 'B'].map((tag) => randomFleet(c, rngCreate(deriveSeed(v['game-id'] >>> 0, `web-fleet:${v['player-index']}:${tag}`))));
}

/** At init, fleets to pick (the terminal's empty line, and two ready placements); in play, every cell not yet shot. */
function choices(view: unknown, phase: AskPhase): Choice[] {
  const v = view as BattleshipMessage;
  if (!v?.board) return [];
  if (phase === 'init') {
    if (v.action !== 'init') return [];
    // An empty line is the terminal's "place them at random" (human.parse draws the fleet on the server).
    const ready = readyFleets(v).map((fleet, i) => ({ label: `fleet ${'AB'[i]}: ${fleet.join(' ')}`, line: fleet.join(' ') }));
    return [{ label: 'random fleet', line: '' }, ...ready];
  }
  if (v.action !== 'play-turn') return [];
  const { width, height } = configOf(v.board);
  const shot = new Set(v.board.your_strikes.map((k) => k.target));
  const out: Choice[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (!shot.has(`${x},${y}`)) out.push({ label: `${x},${y}`, line: `${x},${y}`, cell: [x, y] });
  }
  return out;
}

/** The fleet's syntax, with the ship lengths this match asks for and an example, while the fleet is asked. */
function text(view: unknown, phase: AskPhase): { placeholder: string } | null {
  const v = view as BattleshipMessage;
  if (phase !== 'init' || v?.action !== 'init') return null;
  const c = configOf(v.board);
  const example = randomFleet(c, rngCreate(1)).join(' ');
  return { placeholder: `ships of lengths ${fleetLengths(c).join(', ')} as x1,y1-x2,y2 separated by spaces, e.g. ${example}` };
}

/** Battleship's renderer and human play for the browser. */
export const battleship: WebGame = { id: 'battleship', createRenderer, play: { choices, text } };
