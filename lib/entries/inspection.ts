// `mcp-reflect/inspection`: what `app.inspect()` returns (docs/inspection.md), frozen descriptions of everything an
// application serves, for code that reads them (a catalogue page, a check in CI, an admin tool).
export type {
  ComponentOwner,
  InspectedComponent,
  InspectedCompletion,
  InspectedPrompt,
  InspectedResource,
  InspectedResourceTemplate,
  InspectedTask,
  InspectedTool,
  McpInspection,
} from '../host';
