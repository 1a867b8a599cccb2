import os from 'node:os';
import path from 'node:path';

/** How a host is told to start a server on stdio, or where to reach it over HTTP. */
export type ServerSpec =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      /** The folder to start it in: written only for hosts whose format has one (a host's own folder is used otherwise). */
      readonly cwd: string;
    }
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

export type Scope = 'user' | 'project';

/** One MCP host: where its configuration file is, under which key its servers are, and how one is written. */
export interface Host {
  readonly id: string;
  readonly title: string;
  /** The scope used when none is given, and the scopes it has. */
  readonly scopes: readonly Scope[];
  /** The configuration file, for a scope (`home`, `cwd`, `platform` and `appData` as the machine has them). */
  file(scope: Scope, where: Where): string;
  /** The key of the servers object at the top of the file. */
  readonly key: string;
  /** The entry for one server, or why this host cannot take it. */
  entry(server: ServerSpec): Record<string, unknown> | string;
}

export interface Where {
  readonly home: string;
  readonly cwd: string;
  readonly platform: string;
  /** %APPDATA% on Windows. */
  readonly appData?: string;
}

export const here = (): Where => ({ home: os.homedir(), cwd: process.cwd(), platform: process.platform, ...(process.env.APPDATA ? { appData: process.env.APPDATA } : {}) });

const withEnv = (env: Readonly<Record<string, string>>) => (Object.keys(env).length > 0 ? { env: { ...env } } : {});
const withHeaders = (headers: Readonly<Record<string, string>>) => (Object.keys(headers).length > 0 ? { headers: { ...headers } } : {});

/**
 * How most hosts write a server: the stdio command (with `type: 'stdio'` where `typed`), and the URL under the
 * host's own key (`url`, `serverUrl`, `httpUrl`; with `type: 'http'` where `typed`), or why it takes none; the
 * folder to start in (`cwd`) only where the host's format documents one.
 */
function entries(options: { readonly typed: boolean; readonly urlKey?: string; readonly noUrl?: string; readonly cwd?: boolean }): Host['entry'] {
  const type = (kind: string) => (options.typed ? { type: kind } : {});
  return (server) => {
    if (server.kind === 'stdio') return { ...type('stdio'), command: server.command, args: [...server.args], ...withEnv(server.env), ...(options.cwd ? { cwd: server.cwd } : {}) };
    if (options.noUrl) return options.noUrl;
    return { ...type('http'), [options.urlKey ?? 'url']: server.url, ...withHeaders(server.headers) };
  };
}

/** The per-user configuration folder: ~/Library/Application Support, %APPDATA%, or $XDG_CONFIG_HOME / ~/.config. */
function userConfigDir(where: Where): string {
  if (where.platform === 'darwin') return path.join(where.home, 'Library', 'Application Support');
  if (where.platform === 'win32') return where.appData ?? path.join(where.home, 'AppData', 'Roaming');
  return process.env.XDG_CONFIG_HOME || path.join(where.home, '.config');
}

/** The hosts `mcp-reflect install` writes for, each at its documented location. */
export const HOSTS: readonly Host[] = [
  {
    id: 'claude-desktop',
    title: 'Claude Desktop',
    scopes: ['user'],
    file: (_scope, where) => path.join(userConfigDir(where), 'Claude', 'claude_desktop_config.json'),
    key: 'mcpServers',
    entry: entries({ typed: false, noUrl: "Claude Desktop's configuration file takes stdio servers only: add a remote server under Settings → Connectors, or install the stdio entry." }),
  },
  {
    id: 'claude-code',
    title: 'Claude Code',
    scopes: ['project', 'user'],
    file: (scope, where) => (scope === 'project' ? path.join(where.cwd, '.mcp.json') : path.join(where.home, '.claude.json')),
    key: 'mcpServers',
    entry: entries({ typed: true }),
  },
  {
    id: 'cursor',
    title: 'Cursor',
    scopes: ['user', 'project'],
    file: (scope, where) => path.join(scope === 'project' ? where.cwd : where.home, '.cursor', 'mcp.json'),
    key: 'mcpServers',
    entry: entries({ typed: false, urlKey: 'url' }),
  },
  {
    id: 'vscode',
    title: 'VS Code',
    scopes: ['project', 'user'],
    file: (scope, where) => (scope === 'project' ? path.join(where.cwd, '.vscode', 'mcp.json') : path.join(userConfigDir(where), 'Code', 'User', 'mcp.json')),
    key: 'servers',
    entry: entries({ typed: true }),
  },
  {
    id: 'windsurf',
    title: 'Windsurf',
    scopes: ['user'],
    file: (_scope, where) => path.join(where.home, '.codeium', 'windsurf', 'mcp_config.json'),
    key: 'mcpServers',
    entry: entries({ typed: false, urlKey: 'serverUrl' }),
  },
  {
    id: 'gemini-cli',
    title: 'Gemini CLI',
    scopes: ['user', 'project'],
    file: (scope, where) => path.join(scope === 'project' ? where.cwd : where.home, '.gemini', 'settings.json'),
    key: 'mcpServers',
    entry: entries({ typed: false, urlKey: 'httpUrl', cwd: true }), // settings.json documents `cwd` for a command
  },
  {
    id: 'mcp-json',
    title: 'a plain mcp.json',
    scopes: ['project'],
    file: (_scope, where) => path.join(where.cwd, 'mcp.json'),
    key: 'mcpServers',
    entry: (server) => (server.kind === 'stdio' ? entries({ typed: false })(server) : entries({ typed: true })(server)),
  },
];
