export * from './spec.js';
export * from './transport.js';
export * from './schemes.js';
export { TcpTransport } from './tcp-transport.js';
export { LINK_LOST, LinkTransport, type LinkToSeat, type SeatToLink } from './link-transport.js';
export {
  BrowserTransport,
  PersonDesk,
  spokenMs,
  DEFAULT_LEAVE_MS,
  DEFAULT_PERSON_TURN_MS,
  type DeskNotice,
  type PersonAsk,
  type PersonLimits,
  type Submitted,
} from './browser-transport.js';
export * from './connect-in.js';
export { checkSandbox, SANDBOX_DEFAULTS, type SandboxOptions } from './sandbox.js';
export { sandboxLimits, withLimits } from './sandbox-options.js';
export { commandMissing } from './command-check.js';
export { BOT_ENV_ALLOWED, BOT_ENV_LIMITS, parseBotEnv, parseBotEnvEntry, type BotEnvOptions } from './bot-env.js';
export {
  ForbiddenAddressError,
  hostRefusal,
  isForbiddenAddress,
  PUBLIC_ONLY,
  publicOnlyLookup,
  resolveAll,
  urlRefusal,
  type AddressPolicy,
  type Resolve,
} from './address-policy.js';
