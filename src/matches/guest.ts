import type { BotRow } from '../store/index.js';

/**
 * Bots given by their URL in a test match (the test page's "enter your bot's URL"): they are not registered,
 * play that one match, are never rated, and their seat holds no bot id. The one who started the match reads
 * every seat's message log with the match's viewer token.
 */

/** Whether a seat of a match request is a bot's URL rather than a bot's id or name. */
export function isBotUrl(seat: string): boolean {
  return /^(https?|http\+form):\/\//i.test(seat);
}

/** A bot row for a URL seat: in memory only (its empty id becomes "no bot" in the store), named by its host. */
export function guestBot(game: string, url: string): BotRow {
  let host = url;
  try {
    host = new URL(url.replace(/^http\+form:/i, 'http:')).host;
  } catch {
    // checkEndpoint has refused a URL that does not parse before this is called
  }
  const now = new Date().toISOString();
  return {
    id: '',
    game,
    name: `${host} (test)`,
    endpoint: url,
    builtin: false,
    description: '',
    ownerContact: '',
    tokenHash: null,
    status: 'active',
    statusReason: null,
    doctorReport: null,
    capacity: 1,
    createdAt: now,
    updatedAt: now,
    activeVersion: null,
  };
}
