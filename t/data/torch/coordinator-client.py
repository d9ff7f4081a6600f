# Drives examples/torch/coordinator.py (t/t4082) through its store and
# liveness port as torch 1.13's agents would: the rendezvous state (a
# pickled _RendezvousState, by compare-and-set) and the bfauth handshake.
import datetime, pickle, socket, sys, time
sys.path.insert(0, sys.argv[1])
import bfauth
from torch.distributed import TCPStore
from torch.distributed.elastic.rendezvous.c10d_rendezvous_backend import C10dRendezvousBackend
from torch.distributed.elastic.rendezvous.dynamic_rendezvous import _NodeDesc, _RendezvousState

port, job = int(sys.argv[2]), sys.argv[3]
key = bfauth.secret()
store = TCPStore("127.0.0.1", port, is_master=False, timeout=datetime.timedelta(seconds=10))
backend = C10dRendezvousBackend(store, bfauth.rdzv_id(key, job))
t0 = time.monotonic()

def say(msg):
    print(f"{time.monotonic() - t0:6.2f} {msg}", flush=True)

def state():
    bits, token = backend.get_state()
    return pickle.loads(bits), token

def put(fn):
    for _ in range(100):
        got = backend.get_state()
        if got is None:
            st, token = _RendezvousState(), None
        else:
            st, token = pickle.loads(got[0]), got[1]
        fn(st)
        res = backend.set_state(pickle.dumps(st), token)
        if res is not None and res[2]:
            return
    sys.exit("could not set the state")

def register(pid):
    store.wait([bfauth.liveness_key(key, job)], datetime.timedelta(seconds=10))
    lport = int(store.get(bfauth.liveness_key(key, job)))
    s = socket.create_connection(("127.0.0.1", lport), timeout=10)
    hello = s.recv(1024).decode().split()
    n, cn = hello[-1], bfauth.nonce()
    s.sendall(f"node{pid} {pid} {cn} {bfauth.agent_proof(key, n, f'node{pid}', pid, cn)}\n".encode())
    ans = s.recv(1024).decode().split()
    assert ans[0] == "ok" and bfauth.equal(ans[1], bfauth.coordinator_proof(key, n, f"node{pid}", pid, cn)), ans
    return s

def wait(cond, secs):
    until = time.monotonic() + secs
    while time.monotonic() < until:
        st, _ = state()
        if cond(st):
            return st
        time.sleep(0.02)
    return None

step = sys.argv[4]
if step == "reopen":
    # A closed rendezvous (an agent failed and closed it), round 5.
    def closed(st):
        st.round, st.closed, st.complete = 5, True, True
        st.participants = {_NodeDesc("node1", 1, 0): 0}
    put(closed)
    time.sleep(1.0)
    st, _ = state()
    say(f"no agent since: closed {st.closed}, round {st.round}")
    a = register(101)
    st = wait(lambda st: not st.closed, 5)
    say(f"an agent registered: closed {st.closed if st else True}, round {st.round if st else '-'}, "
        f"participants {len(st.participants) if st else '-'}, complete {st.complete if st else '-'}")
elif step == "settle":
    a, b, c = register(201), register(202), register(203)
    time.sleep(0.3)
    c.close()                 # the third agent vanishes ...
    gone = time.monotonic()
    time.sleep(0.3)           # ... and the other two wait for the next round
    def two_waiting(st):
        st.round += 1
        st.complete, st.closed, st.deadline = False, False, None
        st.participants = {}
        st.wait_list = {_NodeDesc("node201", 201, 0), _NodeDesc("node202", 202, 0)}
    put(two_waiting)
    st = wait(lambda st: st.complete, 6)
    t = time.monotonic() - gone
    say(f"round {st.round if st else '-'} complete {bool(st)} "
        f"{'after' if t >= 2.0 else 'BEFORE'} 2 s from the disconnection; "
        f"ranks {sorted(st.participants.values()) if st else '-'}")
    if t >= 3.5:
        say(f"too late: {t:.2f} s")
