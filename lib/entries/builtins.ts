// `mcp-reflect/builtins`: the ready-made enhancers (docs/builtins.md), their one home.
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
  HistogramLike,
  MeterLike,
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
