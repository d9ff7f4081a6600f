#!/usr/bin/python3
"""liveness.py - register this node's torchrun agent with coordinator.py, then exec it.

    liveness.py /usr/bin/torchrun ARGS...

Reads the coordinator's liveness port from the rendezvous store at $BF_COORD
(under a key derived from the run's secret $BF_SECRET, bfauth.py), connects to
it and proves it holds the secret, sending "FQDN PID" (the FQDN as torchrun's
rendezvous computes it, socket.getfqdn(); PID this process's, which stays
torchrun's after the exec); the coordinator proves the same in return.  It then
makes the socket inheritable, puts the rendezvous id (derived from the secret)
in torchrun's environment as PET_RDZV_ID, never on its command line, and execs
the command.  The agent thus holds the connection for its whole life without
knowing it, and the kernel closes it whenever the agent ends: exit, SIGTERM,
SIGKILL of its process group (a preempted node).  The coordinator then removes
the agent from the rendezvous at once instead of after torch's heartbeat
expiry (3 x 5 s, fixed in 1.13).  The training processes do not inherit the
socket (torchrun starts them with close_fds).

A store that does not prove it is this job's coordinator (none listens yet,
another program holds the port, the handshake fails) is not joined: joining
would send it the rendezvous id, and the agent unpickles what the store
returns.  The command is then not run; exit 75 (EX_TEMPFAIL: bftrainer may
start the worker again), or 64 without $BF_SECRET or $BF_JOB.
"""

import datetime
import os
import socket
import sys

import bfauth

EX_USAGE, EX_TEMPFAIL = 64, 75


def warn(msg):
    sys.stderr.write(f"liveness: {msg}\n")
    sys.stderr.flush()


class Refused(Exception):
    pass


def read_line(s):
    buf = b""
    while b"\n" not in buf:
        if len(buf) > bfauth.LINE_MAX:
            raise Refused("the liveness port sent an overlong line")
        data = s.recv(bfauth.LINE_MAX)
        if not data:
            raise Refused("the liveness port closed the connection")
        buf += data
    return buf.split(b"\n", 1)[0].decode(errors="replace")


def register(key, job):
    coord = os.environ.get("BF_COORD", "")
    host, _, port = coord.rpartition(":")
    if not host or not port.isdigit():
        raise Refused(f"BF_COORD={coord!r} is not HOST:PORT")
    from torch.distributed import TCPStore
    store = TCPStore(host, int(port), is_master=False,
                     timeout=datetime.timedelta(seconds=30))
    # The coordinator sets the key right after it starts its store.
    lkey = bfauth.liveness_key(key, job)
    try:
        store.wait([lkey], datetime.timedelta(seconds=30))
    except RuntimeError:
        raise Refused(f"no liveness port for this run in the store at {coord}")
    lport = store.get(lkey).decode(errors="replace")
    del store
    if not lport.isdigit():
        raise Refused(f"the store at {coord} gave {lport[:20]!r} as the liveness port")
    s = socket.create_connection((host, int(lport)), timeout=30)
    hello = read_line(s).split()
    if len(hello) != 3 or " ".join(hello[:2]).encode() != bfauth.PROTO:
        raise Refused("the liveness port does not speak " + bfauth.PROTO.decode())
    n, fqdn, pid, cnonce = hello[2], socket.getfqdn(), os.getpid(), bfauth.nonce()
    s.sendall(f"{fqdn} {pid} {cnonce} "
              f"{bfauth.agent_proof(key, n, fqdn, pid, cnonce)}\n".encode())
    ok = read_line(s).split()
    if len(ok) != 2 or ok[0] != "ok" or \
            not bfauth.equal(ok[1], bfauth.coordinator_proof(key, n, fqdn, pid, cnonce)):
        raise Refused(f"the coordinator at {coord} did not prove it is this job's")
    s.settimeout(None)
    return s


def main():
    if len(sys.argv) < 2:
        warn("usage: liveness.py COMMAND [ARG...]")
        return EX_USAGE
    job = os.environ.get("BF_JOB", "")
    try:
        key = bfauth.secret()
    except bfauth.NoSecret as e:
        warn(f"{e}; not starting the agent")
        return EX_USAGE
    if not job:
        warn("BF_JOB is not set; not starting the agent")
        return EX_USAGE
    try:
        conn = register(key, job)
    except Exception as e:
        warn(f"not joining the rendezvous at {os.environ.get('BF_COORD')}: "
             f"{type(e).__name__}: {e}")
        return EX_TEMPFAIL
    os.set_inheritable(conn.fileno(), True)     # the exec keeps it open
    os.environ["PET_RDZV_ID"] = bfauth.rdzv_id(key, job)
    os.execv(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
