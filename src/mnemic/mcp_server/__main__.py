"""``python -m mnemic.mcp_server [OPTIONS]``: the same as ``mnemic mcp [OPTIONS]``."""

from ..cli.mcp import mcp

mcp.main(prog_name="python -m mnemic.mcp_server")
