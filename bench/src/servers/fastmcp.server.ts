import { fastmcpServer } from '../systems/fastmcp';

// `stdio` is FastMCP's default transport (ping off by default there); argv[2] is the extra tool count.
void fastmcpServer(Number(process.argv[2] ?? 0)).start({ transportType: 'stdio' });
