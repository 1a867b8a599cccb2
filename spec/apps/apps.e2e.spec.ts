import 'reflect-metadata';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { BootstrapErrorCode, Injectable, MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION, Param, Resource, Tool, UiResource, type McpApplication } from 'mcp-reflect';
import { AppsModule } from '../../samples/apps/apps.module';
import { forecastFor } from '../../samples/apps/forecast.app';
import { FORECAST_VIEW_HTML } from '../../samples/apps/forecast.view';
import { failureOf, testModule, trackApplications } from '../support/bootstrap';
import { connectAs } from '../support/clients';
import { extAppsErrors } from './support/ext-apps-schema';

const bootstrap = trackApplications();
const ERAS = [['2025-11-25', undefined], ['2026-07-28', '2026-07-28']] as const;
const UI_CAPABILITY = { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } };

/** A real SDK client that declares the MCP Apps extension, as a host does. */
async function connectHost(app: McpApplication, protocolVersion?: '2026-07-28'): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await app.connect(serverTransport);
  const client = new Client(
    { name: 'apps-host', version: '1.0.0' },
    { capabilities: { extensions: UI_CAPABILITY }, ...(protocolVersion ? { versionNegotiation: { mode: { pin: protocolVersion } } } : {}) },
  );
  await client.connect(clientTransport);
  return client;
}

describe.each(ERAS)('MCP Apps on %s', (_era, pin) => {
  let app: McpApplication;
  let client: Client;
  beforeEach(async () => {
    app = await bootstrap(AppsModule);
    client = await connectHost(app, pin);
  });
  afterEach(() => client.close());

  it('advertises the io.modelcontextprotocol/ui extension', () => {
    expect(client.getServerCapabilities()?.extensions).toEqual(UI_CAPABILITY);
    expect(extAppsErrors('McpUiClientCapabilities', client.getServerCapabilities()?.extensions?.[MCP_APPS_EXTENSION])).toEqual([]);
  });

  it('lists the ui:// view with its MIME type and _meta.ui', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        uri: 'ui://forecast/view',
        name: 'forecast-view',
        title: 'Forecast view',
        description: 'A table of the forecast days.',
        mimeType: 'text/html;profile=mcp-app',
        _meta: { ui: { prefersBorder: true } },
      },
    ]);
    expect(extAppsErrors('McpUiResourceMeta', resources[0]!._meta!.ui)).toEqual([]);
  });

  it('reads the view as text/html;profile=mcp-app with _meta.ui on the content', async () => {
    const { contents } = await client.readResource({ uri: 'ui://forecast/view' });
    expect(contents).toEqual([{ uri: 'ui://forecast/view', mimeType: 'text/html;profile=mcp-app', text: FORECAST_VIEW_HTML, _meta: { ui: { prefersBorder: true } } }]);
  });

  it('links the tools to the view: _meta.ui.resourceUri, visibility, and the older ui/resourceUri key', async () => {
    const { tools } = await client.listTools();
    const meta = Object.fromEntries(tools.map((t) => [t.name, t._meta]));
    expect(meta).toEqual({
      forecast: { ui: { resourceUri: 'ui://forecast/view' }, 'ui/resourceUri': 'ui://forecast/view' },
      forecast_day: { ui: { resourceUri: 'ui://forecast/view', visibility: ['app'] }, 'ui/resourceUri': 'ui://forecast/view' },
    });
    for (const tool of tools) expect(extAppsErrors('McpUiToolMeta', tool._meta!.ui)).toEqual([]);
  });

  it('answers the tool with text and structured content for the view', async () => {
    const result = await client.callTool({ name: 'forecast', arguments: { city: 'Lisbon' } });
    const days = forecastFor('Lisbon');
    expect(result.structuredContent).toEqual({ city: 'Lisbon', days });
    expect(result.content).toEqual([{ type: 'text', text: `Forecast for Lisbon: ${days.map((d) => `${d.day} ${d.sky} ${d.high}°/${d.low}°`).join(', ')}` }]);
  });

  it('serves clients without the extension the same tool, with its text content', async () => {
    const plain = await connectAs(app, 'text-only', pin);
    try {
      const result = await plain.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
      expect(result.isError).toBeFalsy();
      expect((result.content as { type: string; text: string }[])[0]!.text).toMatch(/^Forecast for Oslo: Monday /);
    } finally {
      await plain.close();
    }
  });

  it('declares no extension on a server without views', async () => {
    @Injectable()
    class Plain {
      @Tool()
      ping(): string {
        return 'pong';
      }
    }
    const plainApp = await bootstrap(testModule('no-views', { providers: [Plain] }));
    const other = await connectHost(plainApp, pin);
    try {
      expect(other.getServerCapabilities()?.extensions).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

describe('@UiResource() options', () => {
  it('puts csp, permissions, domain and prefersBorder in _meta.ui of the listing and of the read content', async () => {
    @Injectable()
    class Map {
      @UiResource('ui://maps/view', {
        title: 'Map',
        csp: { connectDomains: ['https://tiles.example.com'], resourceDomains: ['https://cdn.example.com'] },
        permissions: { geolocation: {} },
        domain: 'maps.example-content.com',
        prefersBorder: false,
        _meta: { 'com.example/version': 2 },
      })
      view(): string {
        return '<!DOCTYPE html><p>map</p>';
      }

      @Tool({ ui: { resourceUri: 'ui://maps/view', visibility: ['model', 'app'] } })
      locate(@Param('place') place: string): string {
        return `${place}: 38.7, -9.1`;
      }
    }
    const app = await bootstrap(testModule('maps', { providers: [Map] }));
    const client = await connectAs(app, 'maps');
    const ui = {
      csp: { connectDomains: ['https://tiles.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissions: { geolocation: {} },
      domain: 'maps.example-content.com',
      prefersBorder: false,
    };
    try {
      const { resources } = await client.listResources();
      expect(resources).toEqual([
        { uri: 'ui://maps/view', name: 'view', title: 'Map', mimeType: MCP_APP_MIME_TYPE, _meta: { 'com.example/version': 2, ui } },
      ]);
      const { contents } = await client.readResource({ uri: 'ui://maps/view' });
      expect(contents).toEqual([{ uri: 'ui://maps/view', mimeType: MCP_APP_MIME_TYPE, text: '<!DOCTYPE html><p>map</p>', _meta: { ui } }]);
      expect(extAppsErrors('McpUiResourceMeta', ui)).toEqual([]);
      const { tools } = await client.listTools();
      expect(tools[0]!._meta).toEqual({ ui: { resourceUri: 'ui://maps/view', visibility: ['model', 'app'] }, 'ui/resourceUri': 'ui://maps/view' });
    } finally {
      await client.close();
    }
  });
});

describe('@UiResource() with _meta.ui of its own', () => {
  it('keeps the given _meta.ui keys beside the options', async () => {
    @Injectable()
    class Views {
      @UiResource('ui://a/view', { prefersBorder: true, _meta: { ui: { domain: 'a.example-content.com' } } })
      view(): string {
        return '<p>a</p>';
      }
    }
    const app = await bootstrap(testModule('own-meta', { providers: [Views] }));
    const client = await connectAs(app, 'own-meta');
    try {
      const { resources } = await client.listResources();
      expect(resources[0]!._meta).toEqual({ ui: { domain: 'a.example-content.com', prefersBorder: true } });
    } finally {
      await client.close();
    }
  });
});

describe('MCP Apps bootstrap errors', () => {
  it('refuses a @UiResource() whose URI is not ui://', async () => {
    @Injectable()
    class Views {
      @UiResource('https://example.com/view')
      view(): string {
        return '<p>x</p>';
      }
    }
    const error = await failureOf(testModule('bad-view', { providers: [Views] }));
    expect(error.code).toBe(BootstrapErrorCode.InvalidResourceUri);
    expect(error.message).toBe(
      `Cannot register the MCP Apps view 'https://example.com/view' of Views.view: @UiResource() URIs must use the ui:// scheme (ext-apps spec, "UI Resource Format").\n` +
        `Fix: give @UiResource() a URI such as 'ui://example.com/view', or use @Resource() for a resource that is not a view.`,
    );
  });

  it('refuses a tool linked to a view no @UiResource() declares', async () => {
    @Injectable()
    class Tools {
      @UiResource('ui://shop/cart')
      cart(): string {
        return '<p>cart</p>';
      }

      @Tool({ name: 'show_orders', ui: 'ui://shop/orders' })
      orders(): string {
        return 'none';
      }
    }
    const error = await failureOf(testModule('unknown-view', { providers: [Tools] }));
    expect(error.code).toBe(BootstrapErrorCode.InvalidOption);
    expect(error.message).toBe(
      `Cannot link tool 'show_orders' (Tools.orders) to the view 'ui://shop/orders': no @UiResource() declares that URI. The application declares: ui://shop/cart.\n` +
        `Fix: declare the view with @UiResource('ui://shop/orders') on a method that returns its HTML (in a provider of the application), or correct @Tool({ ui }).`,
    );
  });

  it('does not take a plain @Resource() with a ui:// URI as a view', async () => {
    @Injectable()
    class Tools {
      @Resource('ui://plain/page', { mimeType: 'text/html' })
      page(): string {
        return '<p>page</p>';
      }

      @Tool({ ui: 'ui://plain/page' })
      show(): string {
        return 'shown';
      }
    }
    const error = await failureOf(testModule('plain-resource', { providers: [Tools] }));
    expect(error.message).toBe(
      `Cannot link tool 'show' (Tools.show) to the view 'ui://plain/page': no @UiResource() declares that URI. The application declares no @UiResource().\n` +
        `Fix: declare the view with @UiResource('ui://plain/page') on a method that returns its HTML (in a provider of the application), or correct @Tool({ ui }).`,
    );
  });

  it('refuses @Tool({ ui }) that is not a ui:// URI', async () => {
    @Injectable()
    class Tools {
      @Tool({ ui: 'https://example.com/view' })
      show(): string {
        return 'shown';
      }
    }
    const error = await failureOf(testModule('tool-scheme', { providers: [Tools] }));
    expect(error.code).toBe(BootstrapErrorCode.InvalidOption);
    expect(error.message).toBe(
      `Cannot link tool 'show' (Tools.show) to 'https://example.com/view': @Tool({ ui }) names an MCP Apps view, whose URI starts with ui://.\n` +
        `Fix: give @Tool({ ui }) the URI of a @UiResource(), e.g. 'ui://app/view'.`,
    );
  });

  it('refuses an empty or unknown visibility', async () => {
    @Injectable()
    class Tools {
      @UiResource('ui://a/view')
      view(): string {
        return '<p>a</p>';
      }

      @Tool({ ui: { resourceUri: 'ui://a/view', visibility: ['user' as 'app'] } })
      show(): string {
        return 'shown';
      }
    }
    const error = await failureOf(testModule('visibility', { providers: [Tools] }));
    expect(error.code).toBe(BootstrapErrorCode.InvalidOption);
    expect(error.message).toBe(
      `Cannot link tool 'show' (Tools.show) to its view: @Tool({ ui: { visibility } }) is ["user"], but it must be a non-empty list of 'model' and 'app'.\n` +
        `Fix: use ['model', 'app'] (the default), ['app'] for a tool only its view calls, or ['model'].`,
    );
  });
});
