export * from './spec.js';
export * from './transport.js';
export * from './schemes.js';
export { TcpTransport } from './tcp-transport.js';
export * from './connect-in.js';
export { checkSandbox, SANDBOX_DEFAULTS, type SandboxOptions } from './sandbox.js';
export { ForbiddenAddressError, hostRefusal, isForbiddenAddress, PUBLIC_ONLY, publicOnlyLookup, resolveAll, urlRefusal, type AddressPolicy, type Resolve } from './address-policy.js';
