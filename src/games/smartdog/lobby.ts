import type { LobbyRules } from '../../core/game.js';

/**
 * The smart-dog server's lobby, as the reference answered it: `join NAME [#]HUB` (the name defaults to
 * `player`, the hub to `default`), `wait ` while a hub fills, and an `error` line for anything else.
 */
export const lobby: LobbyRules = {
  read(line, joined) {
    const words = line.trim().split(/\s+/).filter(Boolean);
    const cmd = words[0] ?? '';
    if (cmd === '') return null;
    if (cmd === 'join') {
      if (joined) return { reply: 'error Already joined' };
      const hub = words[2]?.replace(/^#/, '');
      return { join: hub ? { name: words[1] ?? 'player', hub } : { name: words[1] ?? 'player' } };
    }
    if (cmd === 'do' || cmd === 'end') return { reply: 'error Not in a game' };
    return { reply: `error Unknown command: ${cmd}(${line.trim().slice(cmd.length).trim()})` };
  },
  waiting: 'wait ',
  noSuchHub: 'error No such hub',
};
