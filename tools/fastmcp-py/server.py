"""A Python FastMCP 4 server for the proxy specs (spec/proxy/proxy-fastmcp-py.e2e.spec.ts), on Streamable HTTP.

Binds 127.0.0.1 on a port the OS chooses and prints `LISTENING <port>` on stderr once it is bound.
"""
import asyncio
import socket
import sys

from fastmcp import Context, FastMCP

mcp = FastMCP("py-weather")


@mcp.tool
def forecast(city: str, days: int = 1) -> str:
    """Forecast for a city"""
    return f"{city}: sunny for {days} day(s)"


@mcp.tool
async def slow_count(to: int, ctx: Context) -> str:
    """Counts, reporting progress"""
    for i in range(1, to + 1):
        await ctx.report_progress(i, to, f"step {i}")
        await asyncio.sleep(0.01)
    return f"counted to {to}"


@mcp.resource("weather://stations")
def stations() -> str:
    return "Lyon, Lisbon"


@mcp.resource("weather://cities/{city}")
def city(city: str) -> str:
    return f"the weather of {city}"


@mcp.prompt
def ask(city: str) -> str:
    """Ask about a city"""
    return f"What is the weather in {city}?"


if __name__ == "__main__":
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()


    print(f"LISTENING {port}", file=sys.stderr, flush=True)
    mcp.run(transport="http", host="127.0.0.1", port=port, show_banner=False)
