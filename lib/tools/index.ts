export { ToolRegistry } from './tool-registry';
export { unknownToolMessage } from './tool.messages';
export type { ToolDefinition, ToolDescriptor } from './tool-definition';
export type { CallOutcome } from './result-converter';
export { ToolResult, text, image, audio, embeddedResource, resourceLink, isContentBlock } from '../content';
export type { ContentBlock, TextContent, ImageContent, AudioContent, EmbeddedResource, ResourceLink } from '../content';
