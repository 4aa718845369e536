import { describe } from 'node:test';
import { liveEventsContract } from './contract.kit.js';
import { LocalLiveEvents } from './local.js';

describe('in-process live events (LocalLiveEvents)', () => {
  liveEventsContract((opts) => new LocalLiveEvents(opts));
});
