#!/usr/bin/python3
"""liveness.py - register this node's torchrun agent with coordinator.py, then exec it.

    liveness.py /usr/bin/torchrun ARGS...

Reads the coordinator's liveness port from the rendezvous store at $BF_COORD
(key bftrainer/liveness), connects to it, sends "FQDN PID" (the FQDN as
torchrun's rendezvous computes it, socket.getfqdn(); PID this process's, which
stays torchrun's after the exec), makes the socket inheritable and execs the
command.  The agent thus holds the connection for its whole life without
knowing it, and the kernel closes it whenever the agent ends: exit, SIGTERM,
SIGKILL of its process group (a preempted node).  The coordinator then removes
the agent from the rendezvous at once instead of after torch's heartbeat
expiry (3 x 5 s, fixed in 1.13).  The training processes do not inherit the
socket (torchrun starts them with close_fds).

If the coordinator cannot be reached or has no liveness port, the command is
exec'd all the same (torchrun then waits for the heartbeat expiry).
"""

import os
import socket
import sys


def warn(msg):
    sys.stderr.write(f"liveness: {msg}\n")
    sys.stderr.flush()


def register():
    coord = os.environ.get("BF_COORD", "")
    host, _, port = coord.rpartition(":")
    if not host or not port.isdigit():
        warn(f"BF_COORD={coord!r} is not HOST:PORT; not registered")
        return None
    import datetime
    from torch.distributed import TCPStore
    store = TCPStore(host, int(port), is_master=False,
                     timeout=datetime.timedelta(seconds=30))
    # The coordinator sets the key right after it starts its store; a store
    # without it (another coordinator) is waited for 5 s only.
    try:
        store.wait(["bftrainer/liveness"], datetime.timedelta(seconds=5))
    except RuntimeError:
        warn(f"no liveness port in the store at {coord}; not registered")
        return None
    lport = int(store.get("bftrainer/liveness"))
    del store
    s = socket.create_connection((host, lport), timeout=30)
    s.sendall(f"{socket.getfqdn()} {os.getpid()}\n".encode())
    s.settimeout(None)
    return s


def main():
    if len(sys.argv) < 2:
        warn("usage: liveness.py COMMAND [ARG...]")
        return 64
    try:
        conn = register()
    except Exception as e:      # degrade: run the agent unregistered
        warn(f"not registered with the coordinator at {os.environ.get('BF_COORD')}: {e}")
        conn = None
    if conn is not None:
        os.set_inheritable(conn.fileno(), True)     # the exec keeps it open
    os.execv(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
