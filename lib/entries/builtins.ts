// `mcp-reflect/builtins`: the ready-made enhancers (docs/builtins.md). The main entry exports the same classes.
export {
  assertUpstreamOk,
  OpenTelemetryInterceptor,
  RateLimitError,
  RateLimitGuard,
  ResponseCacheInterceptor,
  TimingInterceptor,
  UpstreamErrorFilter,
  UpstreamHttpError,
} from '../builtins';
export type {
  CallerScope,
  OpenTelemetryOptions,
  RateLimitOptions,
  RequestOutcome,
  ResponseCacheOptions,
  SpanLike,
  TimingEntry,
  TimingOptions,
  TracerLike,
  UpstreamErrorFilterOptions,
  UpstreamResponse,
} from '../builtins';
