// Preloaded (node -r) into a server that takes its port from PORT: it binds to 127.0.0.1 and prints the port
// the OS chose (`LISTENING <port>` on stderr), so specs can start servers on port 0 that do not report it.
const net = require('node:net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const callback = typeof args[args.length - 1] === 'function' ? args[args.length - 1] : undefined;
    args = [Number(args[0]), '127.0.0.1', ...(callback ? [callback] : [])];
  }
  this.once('listening', () => process.stderr.write(`LISTENING ${this.address().port}\n`));
  return listen.apply(this, args);
};
