export { ToolResult, text, image, audio, embeddedResource, resourceLink, isContentBlock } from './content';
export type { ContentBlock, TextContent, ImageContent, AudioContent, EmbeddedResource, ResourceLink } from './content';
