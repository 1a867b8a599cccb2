import { formatIssues, type ValidateFunction } from '../validation';
import { isContentBlock, ToolResult, type ContentBlock } from '../content';
import { callToolResultIssues, looksLikeCallToolResult, type PlainCallToolResult } from './call-tool-result';

/** A `tools/call` result as the library builds it; the protocol layer sends it as is. */
export interface CallOutcome {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** A failed conversion: output the output schema refuses, or (`malformed`) a returned `CallToolResult` that is not valid. */
export type Conversion = { ok: true; outcome: CallOutcome } | { ok: false; issues: string[]; malformed?: true };

/** The compiled output check of a tool with an output schema. */
export interface OutputCheck {
  readonly wrapped: boolean;
  /** The check every result passes: compiled at bootstrap, or (a verbatim `outputSchema`) on the tool's first result. */
  readonly validate: () => ValidateFunction;
  readonly reporting: () => ValidateFunction;
  /**
   * A Standard Schema's own check (`@Tool({ outputSchema: z.object(...) })`): its issues, or its output (unknown keys
   * stripped, as the advertised output side says), which becomes the `structuredContent`.
   */
  readonly parse?: (structured: Record<string, unknown>) => { readonly issues: string[] } | { readonly value: Record<string, unknown> };
}

/**
 * Compiles, once per tool, the function that turns what the method returned into a result:
 * string → text; number/boolean → text; content helpers → those blocks; `ToolResult`, or a plain object shaped
 * exactly like a `CallToolResult` (`looksLikeCallToolResult`) → as given; objects → `structuredContent` plus
 * the same JSON as text; `undefined` → empty content. With an output schema, primitives and arrays are wrapped
 * as `{ result }` and the structured output is validated.
 */
export function compileResultConverter(output: OutputCheck | undefined): (value: unknown) => Conversion {
  /** The issues of `structured` under the output schema, or what to send: itself, or a Standard Schema's output. */
  const check = (structured: Record<string, unknown>): { issues: string[] } | { value: Record<string, unknown> } => {
    if (!output) return { value: structured };
    if (output.parse) return output.parse(structured);
    const validate = output.validate();
    if (validate(structured)) return { value: structured };
    const reporting = output.reporting();
    reporting(structured);
    return { issues: formatIssues(reporting.errors ?? validate.errors ?? [], 'property') };
  };

  const asGiven = (value: ToolResult | PlainCallToolResult): Conversion => {
    const outcome: CallOutcome = { content: value.content };
    if (output && value.structuredContent === undefined && !value.isError) return { ok: false, issues: [CONTENT_ONLY] };
    if (value.structuredContent !== undefined) {
      const checked = value.isError ? { value: value.structuredContent } : check(value.structuredContent);
      if ('issues' in checked) return { ok: false, issues: checked.issues };
      outcome.structuredContent = checked.value;
    }
    if (value.isError) outcome.isError = true;
    if (value._meta) outcome._meta = value._meta;
    return { ok: true, outcome };
  };

  return (value) => {
    if (value instanceof ToolResult) return asGiven(value);
    // Passed through as the SDK's McpServer does (a migration from @rekog/mcp-nest returns these). With an output
    // schema, only one that carries structuredContent (or isError) can be a valid result: another is the data.
    if (looksLikeCallToolResult(value) && (!output || value.structuredContent !== undefined || value.isError === true)) {
      const issues = callToolResultIssues(value);
      return issues.length > 0 ? { ok: false, issues, malformed: true } : asGiven(value);
    }
    const blocks = isContentBlock(value) ? [value] : isContentList(value) ? value : undefined;
    if (blocks) return output ? { ok: false, issues: [CONTENT_ONLY] } : { ok: true, outcome: { content: blocks } };

    if (output) {
      if (value === undefined) return { ok: false, issues: ['the tool returned nothing, but it declares an output schema'] };
      const json = toJson(value);
      const checked = check((output.wrapped ? { result: json } : json) as Record<string, unknown>);
      if ('issues' in checked) return { ok: false, issues: checked.issues };
      return { ok: true, outcome: { content: [textBlock(JSON.stringify(checked.value))], structuredContent: checked.value } };
    }

    if (value === undefined || value === null) return { ok: true, outcome: { content: [] } };
    switch (typeof value) {
      case 'string':
        return { ok: true, outcome: { content: [textBlock(value)] } };
      case 'number':
      case 'boolean':
      case 'bigint':
        return { ok: true, outcome: { content: [textBlock(String(value))] } };
    }
    const text = JSON.stringify(value);
    // structuredContent is the JSON form (Dates as ISO strings, class instances as plain objects), and the
    // spec wants an object there: arrays and values whose toJSON() is not an object go as text only.
    const json: unknown = Array.isArray(value) ? undefined : JSON.parse(text);
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return { ok: true, outcome: { content: [textBlock(text)] } };
    }
    return { ok: true, outcome: { content: [textBlock(text)], structuredContent: json as Record<string, unknown> } };
  };
}

const CONTENT_ONLY =
  'the tool returned content blocks without structured content, but it declares an output schema ' +
  '(return the data itself, or a ToolResult with structuredContent)';

function isContentList(value: unknown): value is ContentBlock[] {
  return Array.isArray(value) && value.length > 0 && value.every(isContentBlock);
}

function toJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return JSON.parse(JSON.stringify(value));
}

function textBlock(text: string): ContentBlock {
  return { type: 'text', text };
}
