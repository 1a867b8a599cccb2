import { expander, templateVariables } from '../catalogue';
import { ToolResult, type ContentBlock } from '../content';
import type { CompleteOptions, JsonSchema, ProvidedCompleter, ProvidedComponents } from '../interfaces';
import { ResourceResult } from '../resources';
import type { RemoteCatalogue, RemoteServer } from './remote-server';

/**
 * The remote's components as a provider's (docs/composition.md#providers): each a descriptor copied from the
 * remote's catalogue and a function forwarding to the remote, so they run through the application's one
 * pipeline like any local component (middleware, guards, scopes, interceptors, validation with the remote's
 * own schemas, timing, OTel).
 */
export function proxyComponents(remote: RemoteServer, catalogue: RemoteCatalogue): ProvidedComponents {
  const tools = catalogue.tools.map((tool) => ({
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.icons ? { icons: tool.icons as never } : {}),
    ...(tool._meta ? { _meta: tool._meta } : {}),
    inputSchema: tool.inputSchema as JsonSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as JsonSchema } : {}),
    call: async (args: Record<string, unknown>, ctx: Parameters<RemoteServer['callTool']>[2]) => {
      const result = await remote.callTool(tool.name, args, ctx);
      return new ToolResult({
        content: (result.content ?? []) as ContentBlock[],
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
        ...(result.isError ? { isError: true } : {}),
        ...(result._meta ? { _meta: result._meta as Record<string, unknown> } : {}),
      });
    },
  }));

  const resources = catalogue.resources.map((resource) => ({
    uri: resource.uri,
    name: resource.name,
    ...(resource.title !== undefined ? { title: resource.title } : {}),
    ...(resource.description !== undefined ? { description: resource.description } : {}),
    ...(resource.mimeType !== undefined ? { mimeType: resource.mimeType } : {}),
    ...(resource.annotations ? { annotations: resource.annotations as never } : {}),
    ...(resource.size !== undefined ? { size: resource.size } : {}),
    ...(resource._meta ? { _meta: resource._meta } : {}),
    read: async (ctx: Parameters<RemoteServer['readResource']>[1]) => new ResourceResult((await remote.readResource(resource.uri, ctx)).contents as never),
  }));

  const templates = catalogue.templates.map((template) => {
    const fill = expander(template.uriTemplate);
    return {
      uriTemplate: template.uriTemplate,
      name: template.name,
      ...(template.title !== undefined ? { title: template.title } : {}),
      ...(template.description !== undefined ? { description: template.description } : {}),
      ...(template.mimeType !== undefined ? { mimeType: template.mimeType } : {}),
      ...(template._meta ? { _meta: template._meta } : {}),
      read: async (variables: Record<string, string>, ctx: Parameters<RemoteServer['readResource']>[1]) =>
        new ResourceResult((await remote.readResource(fill(variables), ctx)).contents as never),
    };
  });

  const prompts = catalogue.prompts.map((prompt) => ({
    name: prompt.name,
    ...(prompt.title !== undefined ? { title: prompt.title } : {}),
    ...(prompt.description !== undefined ? { description: prompt.description } : {}),
    ...(prompt._meta ? { _meta: prompt._meta } : {}),
    arguments: (prompt.arguments ?? []).map((a) => ({ name: a.name, ...(a.description !== undefined ? { description: a.description } : {}), ...(a.required ? { required: true } : {}) })),
    get: async (args: Record<string, string>, ctx: Parameters<RemoteServer['getPrompt']>[2]) => {
      const result = await remote.getPrompt(prompt.name, args, ctx);
      return { ...(result.description !== undefined ? { description: result.description } : {}), messages: result.messages };
    },
  }));

  // The remote completes its prompts' arguments and its templates' variables: each gets a forwarding completer.
  const completers: ProvidedCompleter[] = [];
  if (catalogue.completions) {
    const completer = (ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, argument: string, options: CompleteOptions) => {
      completers.push({
        ...options,
        complete: async (value, context, ctx) => {
          const { completion } = await remote.complete({ ref, argument: { name: argument, value }, context: context as never }, ctx);
          return completion.values;
        },
      });
    };
    for (const prompt of catalogue.prompts) {
      for (const a of prompt.arguments ?? []) completer({ type: 'ref/prompt', name: prompt.name }, a.name, { prompt: prompt.name, argument: a.name });
    }
    for (const template of catalogue.templates) {
      for (const variable of templateVariables(template.uriTemplate)) completer({ type: 'ref/resource', uri: template.uriTemplate }, variable, { resourceTemplate: template.uriTemplate, argument: variable });
    }
  }
  return { tools, resources, templates, prompts, completers };
}
