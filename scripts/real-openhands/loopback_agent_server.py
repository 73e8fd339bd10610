"""The agent server of a process sandbox, listening on 127.0.0.1 only.

The process sandbox service starts `python -m <agent_server_module> --port N`, and the agent server
binds 0.0.0.0 unless told otherwise (openhands/agent_server/__main__.py `--host`). serve_patched.py
points the service at this module, which adds `--host 127.0.0.1` and runs the installed agent server
unchanged, so a test run's sandboxes are reachable from this machine only.
"""

import sys

from openhands.agent_server.__main__ import main

if __name__ == '__main__':
    sys.argv[1:1] = ['--host', '127.0.0.1']
    main()
