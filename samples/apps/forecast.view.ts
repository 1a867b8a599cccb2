/**
 * The forecast view: one self-contained HTML5 document (no network: MCP Apps hosts forbid undeclared origins)
 * that speaks the MCP Apps postMessage protocol without any SDK, as the ext-apps specification shows:
 * `ui/initialize` → `ui/notifications/initialized`, then it renders `ui/notifications/tool-result`.
 */
export const FORECAST_VIEW_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Forecast</title>
<style>
  body { font: 16px/1.4 sans-serif; margin: 0; padding: 16px; color: var(--color-text-primary, #111); background: var(--color-background-primary, #fff); }
  h1 { font-size: 22px; margin: 0 0 12px; }
  table { border-collapse: collapse; }
  td, th { padding: 4px 12px; border-bottom: 1px solid #ccc; text-align: left; }
  #status { color: #555; }
</style>
</head>
<body>
<h1 id="title">Forecast</h1>
<p id="status">Waiting for the host…</p>
<table id="days" hidden><thead><tr><th>Day</th><th>Sky</th><th>High</th><th>Low</th></tr></thead><tbody></tbody></table>
<p><button id="refresh" hidden>Refresh the first day</button> <span id="refreshed"></span></p>
<script>
(() => {
  let nextId = 1;
  const pending = new Map();
  const post = (message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    post({ id, method, params });
  });
  const status = document.getElementById('status');
  let city;
  const reportSize = () => post({ method: 'ui/notifications/size-changed', params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight } });

  function render(result) {
    const data = result.structuredContent;
    if (result.isError || !data || !Array.isArray(data.days)) {
      const text = (result.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\\n');
      status.textContent = text || 'No forecast.';
      return;
    }
    city = data.city;
    document.getElementById('title').textContent = 'Forecast for ' + data.city;
    const body = document.querySelector('#days tbody');
    body.replaceChildren(...data.days.map((d) => {
      const row = document.createElement('tr');
      for (const cell of [d.day, d.sky, d.high + '°', d.low + '°']) {
        const td = document.createElement('td');
        td.textContent = cell;
        row.append(td);
      }
      return row;
    }));
    document.getElementById('days').hidden = false;
    status.textContent = data.days.length + '-day forecast';
    document.getElementById('refresh').hidden = false;
    reportSize();
  }

  // An app-only tool (visibility ['app']), called through the host: it forwards tools/call to the server.
  document.getElementById('refresh').addEventListener('click', () => {
    const out = document.getElementById('refreshed');
    request('tools/call', { name: 'forecast_day', arguments: { city, index: 0 } })
      .then((result) => {
        const d = result.structuredContent;
        out.textContent = result.isError || !d ? 'Refresh failed.' : 'Refreshed: ' + d.day + ' ' + d.sky + ' ' + d.high + '°/' + d.low + '°';
      })
      .catch((error) => { out.textContent = 'Refresh failed: ' + error.message; });
  });

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.id !== undefined && !message.method) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (waiter) message.error ? waiter.reject(new Error(message.error.message)) : waiter.resolve(message.result);
      return;
    }
    switch (message.method) {
      case 'ui/notifications/tool-input':
        status.textContent = 'Loading the forecast for ' + ((message.params && message.params.arguments && message.params.arguments.city) || '…');
        break;
      case 'ui/notifications/tool-result':
        render(message.params);
        break;
      case 'ui/notifications/tool-cancelled':
        status.textContent = 'Cancelled.';
        break;
      case 'ui/resource-teardown':
        post({ id: message.id, result: {} });
        break;
      default:
        if (message.id !== undefined) post({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
    }
  });

  request('ui/initialize', { appInfo: { name: 'forecast-view', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' })
    .then((init) => {
      if (init.hostContext && init.hostContext.theme === 'dark') document.body.style.background = '#222';
      post({ method: 'ui/notifications/initialized', params: {} });
      status.textContent = 'Waiting for the forecast…';
      reportSize();
    })
    .catch((error) => { status.textContent = 'The host refused the view: ' + error.message; });
})();
</script>
</body>
</html>
`;
