// Public entry point of the OpenHands-compatible test server.
export { startTestServer, type TestServer } from './server';
export type { TestServerOptions, SeedOptions, TimingOptions, HostedAuthOptions } from './options';
export { DEFAULT_TIMINGS } from './options';
export type { ServerState } from './state';
export type { FaultController, FaultHandle, FaultKind, FaultMatch, FaultRule } from './faults';
export type { RecordedRequest } from './requestLog';
export type * from './models';
export { DEFAULT_SPEC_ID, NODE_SPEC_ID } from './specs';
export { SANDBOX_ID_PREFIX, dashedUuid } from './ids';
export {
  certificateAuthority,
  selfSignedCertificate,
  type CertificateAuthority,
  type SelfSignedCertificate,
} from './selfSignedCertificate';
