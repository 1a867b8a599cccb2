import type { Context } from '../context';
import { ToolResult, type ContentBlock } from '../content';
import { ResourceResult } from '../resources';
import { Args, Complete, ComponentClass, Ctx, Param, Prompt, Resource, ResourceTemplate, Tool } from '../decorators';
import type { JsonSchema } from '../interfaces';
import type { RemoteCatalogue, RemoteServer } from './remote-server';

/** The names a catalogue's components are served under (before the namespace), to remove them when it changes. */
export interface ProxiedNames {
  readonly tools: readonly string[];
  readonly resources: readonly string[];
  readonly templates: readonly string[];
  readonly prompts: readonly string[];
}

/**
 * The remote's components as one class of decorated methods (a `ComponentClass`), so they run through the
 * application's one pipeline like any local class (middleware, guards, scopes, interceptors, validation with
 * the remote's own schemas, timing, OTel): each method forwards to the remote. A new class per catalogue.
 */
export function proxyComponents(remote: RemoteServer, catalogue: RemoteCatalogue, className: string): { instance: object; names: ProxiedNames } {
  // The remote's schemas are known only now: validated without code generation where the runtime forbids it.
  const proxied = new ComponentClass(className, `the ${remote.label}`);

  for (const tool of catalogue.tools) {
    const call = async (args: unknown, ctx: unknown) => {
      const result = await remote.callTool(tool.name, args as Record<string, unknown>, ctx as Context);
      return new ToolResult({
        content: (result.content ?? []) as ContentBlock[],
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
        ...(result.isError ? { isError: true } : {}),
        ...(result._meta ? { _meta: result._meta as Record<string, unknown> } : {}),
      });
    };
    proxied.method('tool', tool.name, call, [Object, Object], (proto, key, descriptor) => {
      Tool({
        name: tool.name,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        ...(tool.icons ? { icons: tool.icons as never } : {}),
        ...(tool._meta ? { _meta: tool._meta } : {}),
        inputSchema: tool.inputSchema as JsonSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema as JsonSchema } : {}),
      })(proto, key, descriptor);
      Args()(proto, key, 0);
      Ctx()(proto, key, 1);
    });
  }

  for (const resource of catalogue.resources) {
    const read = async (ctx: unknown) => new ResourceResult((await remote.readResource(resource.uri, ctx as Context)).contents as never);
    proxied.method('resource', resource.uri, read, [Object], (proto, key, descriptor) => {
      Resource(resource.uri, {
        name: resource.name,
        ...(resource.title !== undefined ? { title: resource.title } : {}),
        ...(resource.description !== undefined ? { description: resource.description } : {}),
        ...(resource.mimeType !== undefined ? { mimeType: resource.mimeType } : {}),
        ...(resource.annotations ? { annotations: resource.annotations as never } : {}),
        ...(resource.size !== undefined ? { size: resource.size } : {}),
        ...(resource._meta ? { _meta: resource._meta } : {}),
      })(proto, key, descriptor);
      Ctx()(proto, key, 0);
    });
  }

  for (const template of catalogue.templates) {
    const variables = templateVariables(template.uriTemplate);
    const fill = expander(template.uriTemplate);
    // A plain function reading `arguments`: the parser refuses rest parameters (they have no schema).
    const read = async function (this: unknown) {
      const values = Array.from(arguments) as unknown[];
      const ctx = values[variables.length] as Context;
      const uri = fill(Object.fromEntries(variables.map((name, i) => [name, String(values[i] ?? '')])));
      return new ResourceResult((await remote.readResource(uri, ctx)).contents as never);
    };
    proxied.method('template', template.uriTemplate, read, [...variables.map(() => String), Object], (proto, key, descriptor) => {
      ResourceTemplate(template.uriTemplate, {
        name: template.name,
        ...(template.title !== undefined ? { title: template.title } : {}),
        ...(template.description !== undefined ? { description: template.description } : {}),
        ...(template.mimeType !== undefined ? { mimeType: template.mimeType } : {}),
        ...(template._meta ? { _meta: template._meta } : {}),
      })(proto, key, descriptor);
      variables.forEach((name, i) => Param(name, { type: String })(proto, key, i));
      Ctx()(proto, key, variables.length);
    });
  }

  for (const prompt of catalogue.prompts) {
    const names = (prompt.arguments ?? []).map((a) => a.name);
    const get = async function (this: unknown) {
      const values = Array.from(arguments) as unknown[];
      const ctx = values[names.length] as Context;
      const args: Record<string, string> = {};
      names.forEach((name, i) => values[i] !== undefined && (args[name] = String(values[i])));
      const result = await remote.getPrompt(prompt.name, args, ctx);
      return { ...(result.description !== undefined ? { description: result.description } : {}), messages: result.messages };
    };
    proxied.method('prompt', prompt.name, get, [...names.map(() => String), Object], (proto, key, descriptor) => {
      Prompt({
        name: prompt.name,
        ...(prompt.title !== undefined ? { title: prompt.title } : {}),
        ...(prompt.description !== undefined ? { description: prompt.description } : {}),
        ...(prompt._meta ? { _meta: prompt._meta } : {}),
      })(proto, key, descriptor);
      (prompt.arguments ?? []).forEach((a, i) =>
        Param(a.name, { type: String, optional: !a.required, ...(a.description !== undefined ? { description: a.description } : {}) })(proto, key, i),
      );
      Ctx()(proto, key, names.length);
    });
  }

  // The remote completes its prompts' arguments and its templates' variables: each gets a forwarding completer.
  if (catalogue.completions) {
    const completer = (ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, argument: string, options: Parameters<typeof Complete>[0]) => {
      const complete = async (value: unknown, context: unknown, ctx: unknown) => {
        const { completion } = await remote.complete({ ref, argument: { name: argument, value: String(value ?? '') }, context: context as never }, ctx as Context);
        return completion.values;
      };
      proxied.method('complete', `${'name' in ref ? ref.name : ref.uri}#${argument}`, complete, [String, Object, Object], (proto, key, descriptor) => {
        Complete(options)(proto, key, descriptor);
        Ctx()(proto, key, 2);
      });
    };
    for (const prompt of catalogue.prompts) {
      for (const a of prompt.arguments ?? []) completer({ type: 'ref/prompt', name: prompt.name }, a.name, { prompt: prompt.name, argument: a.name });
    }
    for (const template of catalogue.templates) {
      for (const variable of templateVariables(template.uriTemplate)) completer({ type: 'ref/resource', uri: template.uriTemplate }, variable, { resourceTemplate: template.uriTemplate, argument: variable });
    }
  }

  return {
    instance: proxied.instantiate(),
    names: {
      tools: catalogue.tools.map((t) => t.name),
      resources: catalogue.resources.map((r) => r.name),
      templates: catalogue.templates.map((t) => t.name),
      prompts: catalogue.prompts.map((p) => p.name),
    },
  };
}

/** The variable names of an RFC 6570 template, in order (`{a}`, `{+path}`, `{?q,page}`). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, expression] of template.matchAll(/\{([^}]*)\}/g)) {
    for (const part of expression.replace(/^[+#./;?&]/, '').split(',')) {
      const name = part.replace(/[*]$|:\d+$/, '').trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/**
 * An RFC 6570 template (levels 1–3) parsed once, as the function that fills it with values the way the
 * remote will parse them: literal parts and expressions, each with its operator, names and encoding.
 */
export function expander(template: string): (values: Record<string, string>) => string {
  type Part = string | ((values: Record<string, string>) => string);
  const parts: Part[] = [];
  let last = 0;
  for (const match of template.matchAll(/\{([^}]*)\}/g)) {
    parts.push(template.slice(last, match.index));
    last = match.index! + match[0].length;
    const expression = match[1];
    const operator = /^[+#./;?&]/.test(expression) ? expression[0] : '';
    const names = expression.slice(operator.length).split(',').map((n) => n.replace(/[*]$|:\d+$/, '').trim());
    const encode = operator === '+' || operator === '#' ? encodeURI : encodeURIComponent;
    const separator = { '': ',', '+': ',', '#': ',', '.': '.', '/': '/', ';': ';', '?': '&', '&': '&' }[operator]!;
    const named = operator === ';' || operator === '?' || operator === '&';
    const prefix = operator === '+' ? '' : operator;
    parts.push((values) => {
      const present = names.filter((n) => values[n] !== undefined && values[n] !== '');
      if (present.length === 0) return '';
      return prefix + present.map((n) => (named ? `${n}=${encode(values[n])}` : encode(values[n]))).join(separator);
    });
  }
  parts.push(template.slice(last));
  return (values) => parts.map((part) => (typeof part === 'string' ? part : part(values))).join('');
}
