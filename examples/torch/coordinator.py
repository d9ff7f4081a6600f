#!/usr/bin/python3
"""coordinator.py - the once-per-job command of a torchrun job under bftrainer.

1. Hosts the c10d rendezvous store (a torch.distributed.TCPStore server) on the
   bftrainer host, on port $BF_COORD_PORT, for the torchrun agents that
   worker.sh starts on the nodes (--rdzv_backend=c10d --rdzv_endpoint=$BF_COORD
   --rdzv_conf=is_host=0,...).  The agents never host it, so the job survives
   the loss of any compute node.  torch 1.13's server listens on every
   interface and authenticates no one; the rendezvous id, and so the key of the
   pickled state, is derived from the run's secret $BF_SECRET (bfauth.py), so
   no one but the job's processes can name it.

2. Removes dead agents from the rendezvous at once.  torch 1.13 drops an agent
   that vanished only when its heartbeat is 15 s old (keep-alive every 5 s, 3
   misses; not configurable), and the agents that stay cannot start the next
   round before: every shrink or preemption would cost that.  So the
   coordinator also listens on a free port of $BF_COORD_HOST's address,
   published in the store under a key derived from $BF_SECRET; liveness.py
   connects to it on each node, proves it holds the secret, says which agent
   it is (FQDN PID, as the rendezvous names it) and execs torchrun, which
   keeps the connection open until it ends.  When a connection closes, the
   coordinator removes that agent from the participants, the wait list and the
   heartbeats of rendezvous $BF_JOB, as the agent would have done itself on
   leaving (torch's own exit step; compare-and-set on the state, retried).

3. Completes a round as soon as every live registered agent has joined it or
   waits for it (and at least min_nodes have), as the agents themselves do
   when max_nodes have joined, instead of waiting for last_call_timeout.  The
   timeout stays the fallback for agents that did not register.  Not within
   SETTLE_SECONDS of an agent's disconnection: a preemption ends the agents
   of its nodes one after another, and a round completed in between would
   count one about to vanish, whose peers then wait for it in torch's
   rank exchange until their store times out.

4. Reopens the rendezvous when torch closed it and an agent registered since.
   A torchrun agent that fails other than by a signal (a store that timed
   out) closes the rendezvous for good as it exits, and every agent started
   after it then fails at once (RendezvousClosedError): the job would never
   train again.  Under bftrainer the job ends when bf-apply ends it, not
   when one agent gives up, so a new agent opens a new round.

Runs until SIGTERM or SIGINT, then exits 0.
"""

import datetime
import os
import pickle
import queue
import signal
import socket
import sys
import threading
import time

import bfauth


def log(msg):
    sys.stderr.write(f"coordinator: {time.strftime('%H:%M:%S')} {msg}\n")
    sys.stderr.flush()


class Refusals:
    """Counts liveness connections refused; logs the first few and then every
    thousandth, so that a flood cannot fill the job's output."""
    def __init__(self):
        self.n = 0
        self.lock = threading.Lock()

    def note(self, peer, why):
        with self.lock:
            self.n += 1
            n = self.n
        if n <= 10 or n % 1000 == 0:
            log(f"refused liveness connection {n} from {peer[0]}: {why}")


def read_line(conn):
    """One line of at most bfauth.LINE_MAX bytes, without its newline; None
    when the peer closed, sent too much or timed out."""
    buf = b""
    while b"\n" not in buf:
        if len(buf) > bfauth.LINE_MAX:
            return None
        data = conn.recv(bfauth.LINE_MAX)
        if not data:
            return None
        buf += data
    line = buf.split(b"\n", 1)[0]
    return line if len(line) <= bfauth.LINE_MAX else None


def bind_address(host):
    """The first address of HOST ($BF_COORD_HOST, where the agents reach this
    host), so the liveness port is not on every interface; every interface
    only when HOST does not resolve (the agents then cannot reach it either)."""
    try:
        ai = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        log(f"BF_COORD_HOST {host!r} does not resolve ({e}); liveness port on every interface")
        return None
    family, _, _, _, addr = ai[0]
    return family, addr[0]


def listen_liveness(key, host, dead, live, lock):
    """Accept agents' liveness connections: an agent that proves it holds the
    job's secret (bfauth) is (fqdn, pid) in LIVE while its connection is open
    (its value: the monotonic time it registered), and is queued on DEAD when
    it closes.  Anything else is refused."""
    where = bind_address(host)
    if where is None:
        srv = socket.create_server(("", 0))
    else:
        srv = socket.create_server((where[1], 0), family=where[0])
    refusals = Refusals()
    pending = threading.BoundedSemaphore(64)    # handshakes at once

    def handshake(conn, peer):
        conn.settimeout(5)
        n = bfauth.nonce()
        conn.sendall(bfauth.PROTO + b" " + n.encode() + b"\n")
        line = read_line(conn)
        if line is None:
            refusals.note(peer, "no answer")
            return None
        f = line.decode(errors="replace").split()
        if len(f) != 4 or not f[1].isdigit() or len(f[2]) != 32:
            refusals.note(peer, "not a liveness answer")
            return None
        fqdn, pid, cnonce, proof = f[0], int(f[1]), f[2], f[3]
        if not bfauth.equal(proof, bfauth.agent_proof(key, n, fqdn, pid, cnonce)):
            refusals.note(peer, "wrong proof")
            return None
        conn.sendall(b"ok " + bfauth.coordinator_proof(key, n, fqdn, pid, cnonce).encode()
                     + b"\n")
        conn.settimeout(None)
        return fqdn, pid

    def serve(conn, peer):
        who = None
        try:
            try:
                who = handshake(conn, peer)
            finally:
                pending.release()
            if who is not None:
                with lock:
                    live[who] = time.monotonic()
                log(f"agent {who[0]}_{who[1]} registered from {peer[0]}")
                while conn.recv(4096):
                    pass
        except OSError:
            pass
        finally:
            conn.close()
        if who is not None:
            with lock:
                live.pop(who, None)
            dead.put(who)

    def accept():
        while True:
            conn, peer = srv.accept()
            if not pending.acquire(blocking=False):
                refusals.note(peer, "too many handshakes at once")
                conn.close()
                continue
            threading.Thread(target=serve, args=(conn, peer), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    name = srv.getsockname()
    return name[1], name[0]


def put_state(backend, state, token):
    """Write STATE by compare-and-set over TOKEN; True if it was written (not
    when another process wrote first)."""
    res = backend.set_state(pickle.dumps(state), token)
    return res is not None and res[2]


def remove_agent(backend, min_nodes, fqdn, pid):
    """Remove agent FQDN_PID_* from the rendezvous state; True if something was removed."""
    from torch.distributed.elastic.rendezvous import dynamic_rendezvous as dr

    class Settings:          # what _remove_participant_epilogue reads
        pass
    settings = Settings()
    settings.min_nodes = min_nodes
    for _ in range(100):
        got = backend.get_state()
        if got is None:
            return False
        bits, token = got
        state = pickle.loads(bits)
        nodes = set(state.participants) | set(state.wait_list) | set(state.last_heartbeats)
        victims = [n for n in nodes if n.fqdn == fqdn and n.pid == pid]
        if not victims:
            return False
        was_participant = False
        for n in victims:
            if n in state.participants:
                del state.participants[n]
                was_participant = True
            state.wait_list.discard(n)
            state.last_heartbeats.pop(n, None)
        if was_participant:
            dr._remove_participant_epilogue(state, settings)
        if put_state(backend, state, token):
            log(f"removed dead agent {fqdn}_{pid} from round {state.round} "
                f"({'participant' if was_participant else 'waiting'}; "
                f"{len(state.participants)} participants, {len(state.wait_list)} waiting)")
            return True
        time.sleep(0.05)    # someone else wrote first: read again
    log(f"could not remove dead agent {fqdn}_{pid}: the state kept changing")
    return False


SETTLE_SECONDS = 2.0    # after a disconnection, before a round completes


def reopen_closed(backend, closed_at, registered):
    """If the rendezvous is closed: the time it was first seen closed
    (CLOSED_AT, or now); once an agent registered after that time (REGISTERED:
    (fqdn, pid) -> time of the live agents), open a next round, empty, for the
    agents to join, and return None.  Returns the new closed_at."""
    got = backend.get_state()
    if got is None:
        return None
    bits, token = got
    state = pickle.loads(bits)
    if not state.closed:
        return None
    now = time.monotonic()
    if closed_at is None:
        log(f"the rendezvous was closed by an agent that exited (round {state.round}); "
            f"it is opened again when a new agent registers")
        return now
    if not any(t > closed_at for t in registered.values()):
        return closed_at
    state.closed = False
    state.round += 1
    state.complete = False
    state.deadline = None
    state.participants.clear()
    state.wait_list.clear()
    state.last_heartbeats.clear()
    if put_state(backend, state, token):
        log(f"opened the rendezvous again: round {state.round}, for the agents "
            f"registered since it was closed")
        return None
    return closed_at


def complete_round(backend, min_nodes, max_nodes, agents):
    """Complete the open round if its participants and the agents waiting for
    it are exactly the live registered AGENTS, at least min_nodes (and at most
    max_nodes) of them: the waiting agents become participants, and the ranks
    are assigned as torch does (participants sorted).  Each agent would do
    the first step itself at its next poll (once a second in 1.13) and wait
    for last_call_timeout before the second."""
    got = backend.get_state()
    if got is None or not agents:
        return False
    bits, token = got
    state = pickle.loads(bits)
    if state.closed or state.complete:
        return False
    nodes = set(state.participants) | set(state.wait_list)
    if len(nodes) < max(min_nodes, 1) or (max_nodes and len(nodes) > max_nodes):
        return False
    if {(n.fqdn, n.pid) for n in nodes} != agents:
        return False
    for n in state.wait_list:
        state.participants[n] = 0
    state.wait_list.clear()
    state.complete = True
    state.deadline = None
    for rank, node in enumerate(sorted(state.participants)):
        state.participants[node] = rank
    if put_state(backend, state, token):
        log(f"completed round {state.round} with its {len(state.participants)} "
            f"live agents")
        return True
    return False


def main():
    stop = []
    signal.signal(signal.SIGTERM, lambda s, f: stop.append(s))
    signal.signal(signal.SIGINT, lambda s, f: stop.append(s))

    from torch.distributed import TCPStore
    from torch.distributed.elastic.rendezvous.c10d_rendezvous_backend import (
        C10dRendezvousBackend)

    job = os.environ.get("BF_JOB", "")
    try:
        key = bfauth.secret()
    except bfauth.NoSecret as e:
        log(str(e))
        return 64
    try:
        port = int(os.environ["BF_COORD_PORT"])
    except (KeyError, ValueError):
        log("BF_COORD_PORT is not set to a port number")
        return 64
    if not job:
        log("BF_JOB is not set")
        return 64
    min_nodes = int(os.environ.get("BF_MIN_NODES", "1") or 1)
    # The server listens on every interface whatever the host name; the name is
    # only where this process's own client connects.  timeout: for this
    # client's operations (the agents set theirs with read_timeout).
    store = TCPStore("127.0.0.1", port, is_master=True, wait_for_workers=False,
                     timeout=datetime.timedelta(seconds=30))
    # The state under torch.rendezvous.<rdzv id>: a name only the job's
    # processes can make (bfauth).  Never logged.
    backend = C10dRendezvousBackend(store, bfauth.rdzv_id(key, job))
    dead = queue.Queue()
    live = {}
    lock = threading.Lock()
    lport, laddr = listen_liveness(key, os.environ.get("BF_COORD_HOST", ""),
                                   dead, live, lock)
    store.set(bfauth.liveness_key(key, job), str(lport))
    log(f"{job}: rendezvous store on port {port} (--rdzv_endpoint="
        f"{os.environ.get('BF_COORD', '?')}, rendezvous id from BF_SECRET), "
        f"liveness port {lport} on {laddr}")
    max_nodes = int(os.environ.get("BF_MAX_NODES", "0") or 0)
    last_gone = None        # when the last agent disconnected
    closed_at = None        # when the rendezvous was first seen closed
    while not stop:
        try:
            fqdn, pid = dead.get(timeout=0.1)
            last_gone = time.monotonic()
            log(f"agent {fqdn}_{pid} disconnected")
            remove_agent(backend, min_nodes, fqdn, pid)
            continue
        except queue.Empty:
            pass
        except Exception as e:      # keep serving the store whatever happens
            log(f"could not remove dead agent {fqdn}_{pid}: {type(e).__name__}: {e}")
        try:
            with lock:
                registered = dict(live)
            closed_at = reopen_closed(backend, closed_at, registered)
            if closed_at is not None:
                continue
            if last_gone is not None and time.monotonic() - last_gone < SETTLE_SECONDS:
                continue
            complete_round(backend, min_nodes, max_nodes, set(registered))
        except Exception as e:
            log(f"could not complete the round: {type(e).__name__}: {e}")
    log(f"{job}: signal {stop[0]}, exiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
