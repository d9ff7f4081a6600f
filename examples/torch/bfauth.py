"""bfauth.py - the job's secret and what coordinator.py and liveness.py derive from it.

bftrainer gives every run of a job a new secret, $BF_SECRET (128 bits in hex,
in the environment of the job's processes only: never on a command line, which
ps shows to every user, nor in a file).  Everything the recipe serves is keyed
with it, so that another user who reaches the coordinator's ports can name
nothing in its store and cannot talk to its liveness port:

- the rendezvous id (torchrun's --rdzv_id, passed to torchrun as PET_RDZV_ID in
  its environment): the rendezvous state, a pickle that the coordinator and
  every agent unpickle, lives under torch.rendezvous.<id>, and torch's store
  has no way to list its keys;
- the store key where the coordinator publishes its liveness port;
- the liveness handshake: the coordinator sends a nonce, the agent answers
  with its name, its own nonce and an HMAC-SHA256 of both nonces and the name;
  the coordinator answers with an HMAC of its own, which proves to the agent
  that the store it is about to use is its job's coordinator's (a store that
  cannot prove it, the agent does not join: joining would send it the
  rendezvous id).

Each derivation is HMAC-SHA256(secret, label), so none reveals the secret or
another.
"""

import hashlib
import hmac
import os

PROTO = b"bftrainer-liveness 1"
LINE_MAX = 1024         # bytes of a handshake line


class NoSecret(Exception):
    pass


def secret():
    """The job's secret as bytes; NoSecret when $BF_SECRET is missing or short."""
    s = os.environ.get("BF_SECRET", "")
    try:
        b = bytes.fromhex(s)
    except ValueError:
        b = b""
    if len(b) < 16:
        raise NoSecret("BF_SECRET is not set to at least 128 bits in hex "
                       "(bftrainer sets it for every run)")
    return b


def mac(key, *parts):
    return hmac.new(key, b"\0".join(p if isinstance(p, bytes) else str(p).encode()
                                    for p in parts), hashlib.sha256).hexdigest()


def rdzv_id(key, job):
    """The rendezvous id: the job's name (for people reading logs) and 128 bits
    derived from the secret (for no one else to name its state)."""
    return f"{job}-{mac(key, 'rendezvous', job)[:32]}"


def liveness_key(key, job):
    """The store key holding the liveness port (not the rendezvous id: an
    agent asks an unverified store for it)."""
    return f"bftrainer/liveness/{mac(key, 'liveness', job)[:32]}"


def agent_proof(key, nonce, fqdn, pid, cnonce):
    return mac(key, "agent", nonce, fqdn, pid, cnonce)


def coordinator_proof(key, nonce, fqdn, pid, cnonce):
    return mac(key, "coordinator", nonce, fqdn, pid, cnonce)


def nonce():
    return os.urandom(16).hex()


def equal(a, b):
    return hmac.compare_digest(a.encode(), b.encode())
