"""Runs the installed OpenHands app server (openhands-ai 1.11.0) with the two runtime patches these
machines need, and nothing else changed. Started by scripts/real-openhands/server.ts:

    <venv>/bin/python scripts/real-openhands/serve_patched.py --host 127.0.0.1 --port PORT

The patches replace attributes of already-imported modules in this process only; no installed file is
edited. Both were checked against the installed source (see the README, "The real OpenHands"):

1. /.dockerenv exists on these machines, so `is_running_in_docker()` is true and every health check of a
   local process sandbox is sent to `http://host.docker.internal:<port>`, a name that does not resolve
   here. Upstream issue OpenHands/OpenHands#14499. Installed code:
   openhands/app_server/utils/docker_utils.py `replace_localhost_hostname_for_docker` (calls
   `is_running_in_docker` from openhands/app_server/utils/environment.py: /.dockerenv, /run/.containerenv,
   DOCKER_CONTAINER, /proc/self/cgroup). Patched: docker_utils sees "not in Docker". The sandboxes are
   processes on this very host, so `localhost` is the right name for them.

2. `ProcessSandboxService._get_process_status` maps only psutil's "running" to RUNNING; an agent server
   waiting for requests is "sleeping" and is reported STARTING for ever, so a conversation start waits
   for the sandbox until it times out. Upstream PR OpenHands/OpenHands#14267 (not merged in 1.11.0).
   Patched: a live process that is not stopped (sleeping, disk-sleep, idle) counts as RUNNING, exactly
   as a "running" one does; the service's own /alive health check still turns a process that does not
   answer into ERROR.

3. Not a fix: the test launcher's isolation. The service starts each sandbox's agent server with
   `python -m openhands.agent_server --port N`, which listens on every interface. Patched: the service
   starts `loopback_agent_server` (next to this file, on PYTHONPATH) instead, the same server with
   `--host 127.0.0.1`. (The run's own tmux socket folder needs no patch: server.ts sets it through
   OH_AGENT_SERVER_ENV, which the process sandbox spec applies after its shared `/tmp/openhands-tmux`.)

4. Not a fix either: time to start. `ProcessSandboxService._wait_for_server_ready(port, timeout=30)` gives
   a new agent server 30 s to answer /alive, then deletes it ("Agent Server Failed to start properly",
   a 500 on POST /api/v1/sandboxes). It needs 20-30 s on an idle 2-core machine, and more while other
   test runs share the cores. Patched: 120 s; a server that never answers still fails, later.
"""

from __future__ import annotations

import argparse
import os

import psutil
import uvicorn

# How long a new sandbox's agent server may take to answer /alive (patch 4).
SANDBOX_START_SECONDS = 120


def apply_patches() -> None:
    from openhands.app_server.sandbox import process_sandbox_service
    from openhands.app_server.sandbox.sandbox_models import SandboxStatus
    from openhands.app_server.utils import docker_utils

    # 1. OpenHands/OpenHands#14499: no host.docker.internal rewrite for sandboxes on this host.
    docker_utils.is_running_in_docker = lambda: False

    # 2. OpenHands/OpenHands#14267: an idle (sleeping) agent server is RUNNING, not STARTING.
    service = process_sandbox_service.ProcessSandboxService
    original = service._get_process_status
    alive_but_waiting = {psutil.STATUS_SLEEPING, psutil.STATUS_DISK_SLEEP, psutil.STATUS_IDLE}

    def get_process_status(self, process_info):  # type: ignore[no-untyped-def]
        status = original(self, process_info)
        if status != SandboxStatus.STARTING:
            return status
        try:
            if psutil.Process(process_info.pid).status() in alive_but_waiting:
                return SandboxStatus.RUNNING
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            return SandboxStatus.MISSING
        return status

    service._get_process_status = get_process_status

    # 3. Sandboxes of a test run listen on loopback only.
    original_start = service._start_agent_process

    async def start_on_loopback(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.agent_server_module = 'loopback_agent_server'
        return await original_start(self, *args, **kwargs)

    service._start_agent_process = start_on_loopback

    # 4. A loaded machine: the sandbox's agent server gets 120 s to answer /alive, not 30.
    original_wait = service._wait_for_server_ready

    async def wait_longer(self, port, timeout=30):  # type: ignore[no-untyped-def]
        return await original_wait(self, port, max(timeout, SANDBOX_START_SECONDS))

    service._wait_for_server_ready = wait_longer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--port', type=int, required=True)
    args = parser.parse_args()
    apply_patches()
    print(
        f'[serve_patched] patches applied (#14499, #14267, loopback sandboxes, {SANDBOX_START_SECONDS} s to start);'
        f' pid {os.getpid()}',
        flush=True,
    )
    uvicorn.run(
        'openhands.app_server.app:app',
        host=args.host,
        port=args.port,
        log_level='debug' if os.environ.get('DEBUG') else 'info',
    )


if __name__ == '__main__':
    main()
