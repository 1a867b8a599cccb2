export { Context, InvalidAnswerError } from './context';
export { Ask } from './ask';
export type { Answers, Question } from './ask';
export type { ElicitResult, InputOptions, SampleOptions, SamplingMessage, SamplingResult } from './inputs';
export { InputRequiredSignal, rethrowIfInputRequired } from './interaction';
export type { ElicitationForm, InputSpec, InteractionChannel } from './interaction';
export type { ClientInfo, ContextLogger, LogLevel, RequestChannel } from './context';
export type { McpAuth } from './auth';
export { ForwardingChannel } from './forwarding-channel';
