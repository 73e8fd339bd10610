/** The OpenHands app-server client: pure TypeScript, no `vscode` import. */
export { OpenHandsClient, type OpenHandsClientOptions } from './client';
export {
  ConversationManageApi,
  exportedEvents,
  MAX_QUEUED_MESSAGES,
  MAX_TITLE_CHARS,
  type ManageOffers,
  type DownloadOptions as ConversationDownloadOptions,
} from './conversationManage';
export * from './modelSetup';
export type {
  ConversationFilters,
  ConversationSearchQuery,
  DateInput,
  PageQuery,
  StartTaskFilters,
  StartTaskSearchQuery,
} from './searchQueries';
export { ApiError, isApiError, messageOf, type ApiErrorKind, type ValidationIssue } from './errors';
export { stripQuery } from './failures';
export { sleep, type CallOptions } from './signals';
export * from './models';
export { collectAll, iteratePages, type PageFetcher } from './paging';
export type { SandboxConversations, SandboxConversationsOptions } from './sandboxConversations';
export { REDACTED, redactJson, redactUrl, scrubSecrets } from './redact';
export { checkServerUrl, type ServerUrlCheck } from './serverUrl';
export { probeServer, type ServerProbe, type ServerProbeOutcome } from './serverProbe';
export {
  MCP_PROBE_DEFAULTS,
  probeMcpServer,
  probeMcpServers,
  type McpProbeOptions,
  type McpProbeResult,
  type McpProbeTarget,
} from './mcpProbe';
export { StartTaskFailedError, type WaitForStartTaskOptions } from './startTaskPoller';
export type { TlsOptions } from './tls';
export type { AuthHeader, RequestLogEntry } from './http/transport';
export { ConnectionPool } from './connectionPool';
export { normalizeUuid, sameUuid } from './uuid';
export {
  AgentServerClient,
  type AgentServerClientOptions,
  type BashOptions,
  type DeltaOptions,
  type DownloadOptions,
  type EventSearchQuery,
  type UploadOptions,
} from './agentServer/agentServerClient';
export * from './agentServer/bashOutput';
export { agentEndpointOf, type AgentEndpoint } from './agentServer/endpoint';
export { readAllEvents, MAX_EXPORTED_EVENTS } from './agentServer/allEvents';
export { EventFeed, type EventFeedOptions, type FeedTarget } from './agentServer/eventFeed';
export type { FeedState, FeedStatus } from './agentServer/feedState';
export { EventLog, type EventLogChange } from './agentServer/eventLog';
export {
  openEventSocket,
  SilentSocketError,
  type EventSocket,
  type EventSocketOptions,
  type SocketAuth,
} from './agentServer/eventSocket';
export * from './agentServer/events';
export * from './agentServer/workspace';
export * from './agentServer/imageDrawCost';
export * from './agentServer/images';
export { changesInPatch } from './agentServer/patchSummary';
export * from './agentServer/codeRunningFiles';
export { binaryBase } from './agentServer/binaryBase';
export { isRecord } from './records';
export { statsFromMetrics, statsFromUpdate, type LlmUsage, type UsageStats } from './usage/usageStats';
export {
  contextPercent,
  costWithBudget,
  formatCost,
  formatTokens,
  totalTokens,
  usageText,
  type UsageText,
} from './usage/usageText';
