#!/usr/bin/python3
"""train.py - a small elastic data-parallel training script for torchrun under bftrainer.

One process per slot, started by a torchrun agent (worker.sh).  A small MLP
learns a fixed random "teacher" on synthetic data with DistributedDataParallel
over gloo (CPU, one thread per process).

Batch: fixed PER WORKER (--batch, default 128), so a step at WORLD_SIZE workers
trains batch * WORLD_SIZE samples, and the samples counted are the sum over the
workers.

State: model, optimizer, step and cumulative samples, committed to
DIR/ckpt.pt (written to a temporary file in DIR, fsync'd, renamed, DIR
fsync'd) by rank 0 every --ckpt-every steps, and by the group whenever a stop is
agreed (below).  Every start, and so every re-rendezvous, resumes from it: rank
0 reads it and broadcasts it, so all ranks start from the same state even if a
commit lands while they start.  DIR must be shared by every node of the job.

Progress: rank 0 appends "UNIXTIME NODES SAMPLES" to $BF_PROGRESS right after
each (re)start and after each commit; NODES is GROUP_WORLD_SIZE, the
number of torchrun agents (nodes) in the current rendezvous, never $BF_NODES
(stale after a rescale); SAMPLES is cumulative since the job first started (it
comes from the checkpoint).  Only committed samples are reported, so the
log never goes backwards, even when a preemption loses the steps since the last
commit (bf-profile keeps only non-decreasing reports).

Stopping: SIGTERM or SIGINT (bftrainer's shrink notice or the end of the job, or
the agent restarting its workers for a re-rendezvous) only sets a flag.  After
every step the ranks all-reduce their flags, so the whole group stops after the
same step; the group commits that step if it is newer than the stored one, and
every rank exits.  A rank exits 0 only when --samples are done (all ranks then
exit 0 after the same step: the agents see success and end); any other stop
exits 75, so that the agents of the nodes that stay restart their workers
(a membership change, then a new rendezvous).  A peer that vanished without
notice (preempted node: SIGKILL) makes the next collective fail: the ranks left
exit 75 without a commit (the state of a failed step is not trusted) and the
group resumes from the last commit.
"""

import argparse
import datetime
import os
import signal
import socket
import sys
import time

EX_TEMPFAIL = 75


def log(msg):
    rank = os.environ.get("RANK", "?")
    ws = os.environ.get("WORLD_SIZE", "?")
    sys.stderr.write(f"train[{rank}/{ws} {socket.gethostname()}:{os.getpid()}] {msg}\n")
    sys.stderr.flush()


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--checkpoint", required=True, metavar="DIR",
                   help="directory for ckpt.pt, shared by all nodes")
    p.add_argument("--samples", type=int, default=0,
                   help="exit 0 once this many cumulative samples are done (0: never)")
    p.add_argument("--batch", type=int, default=128, help="samples per worker per step")
    p.add_argument("--width", type=int, default=1024, help="hidden width of the MLP")
    p.add_argument("--ckpt-every", type=int, default=10,
                   help="steps between commits, each followed by a progress line")
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--timeout", type=float, default=30,
                   help="gloo timeout in seconds (a peer that vanished without closing "
                        "its sockets is detected after this long)")
    return p.parse_args()


stop_requested = 0


def on_signal(signum, frame):
    global stop_requested
    stop_requested = 1


def main():
    args = parse_args()
    # Handlers first: a SIGTERM that arrives while torch loads must still be a clean stop.
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    os.environ.setdefault("OMP_NUM_THREADS", "1")

    t_exec = time.time()
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP

    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)

    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    nodes = int(os.environ.get("GROUP_WORLD_SIZE", "1"))
    restarts = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
    t0 = time.time()
    t_import = t0 - t_exec
    if rank != 0:
        # Rank 0 hosts the group's store at MASTER_ADDR:MASTER_PORT.  torch
        # 1.13's store client retries a refused connection only after 1 s, so
        # wait here, polling every 20 ms, until the store listens.
        addr = (os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]))
        deadline = time.time() + args.timeout
        while time.time() < deadline:
            try:
                socket.create_connection(addr, timeout=1).close()
                break
            except OSError:
                time.sleep(0.02)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.timeout))

    dim_in, dim_out = 64, 10
    torch.manual_seed(1234)     # the teacher and the initial model are the same on every rank
    teacher = nn.Sequential(nn.Linear(dim_in, 64), nn.Tanh(), nn.Linear(64, dim_out))
    model = nn.Sequential(nn.Linear(dim_in, args.width), nn.ReLU(),
                          nn.Linear(args.width, args.width), nn.ReLU(),
                          nn.Linear(args.width, dim_out))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)

    os.makedirs(args.checkpoint, exist_ok=True)
    path = os.path.join(args.checkpoint, "ckpt.pt")

    # Resume: rank 0 reads the last commit and broadcasts it.
    box = [None]
    if rank == 0 and os.path.exists(path):
        box[0] = torch.load(path)
    dist.broadcast_object_list(box, src=0)
    ck = box[0]
    step, samples = 0, 0
    if ck is not None:
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["optimizer"])
        step, samples = ck["step"], ck["samples"]
    stored_step = step
    ddp = DDP(model)
    loss_fn = nn.MSELoss()

    def commit():
        nonlocal stored_step
        state = {"model": model.state_dict(), "optimizer": opt.state_dict(),
                 "step": step, "samples": samples, "time": time.time()}
        tmp = os.path.join(args.checkpoint,
                           f".ckpt.pt.{socket.gethostname()}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            torch.save(state, f)
            f.flush()
            os.fsync(f.fileno())
        os.rename(tmp, path)
        dfd = os.open(args.checkpoint, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
        stored_step = step

    progress = os.environ.get("BF_PROGRESS")

    def report():
        nonlocal progress
        if rank != 0 or not progress:
            return
        line = f"{time.time():.3f} {nodes} {samples}\n".encode()
        try:
            fd = os.open(progress, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line)      # one write(2) of one line, O_APPEND
            finally:
                os.close(fd)
        except OSError as e:            # training goes on; say it once
            log(f"cannot append to BF_PROGRESS {progress}: {e}; no more reports")
            progress = None

    log(f"start: {nodes} nodes, world {world}, restart {restarts}, resumed at step {step} "
        f"samples {samples}; import {t_import:.2f} s, init {time.time() - t0:.2f} s")
    report()

    flag = torch.zeros(1)
    code = EX_TEMPFAIL
    try:
        while True:
            if args.samples and samples >= args.samples:
                code = 0
                break
            g = torch.Generator().manual_seed(step * 100003 + rank)
            x = torch.randn(args.batch, dim_in, generator=g)
            with torch.no_grad():
                y = teacher(x)
            loss = loss_fn(ddp(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()          # gradients all-reduced here
            opt.step()
            step += 1
            samples += args.batch * world
            # Agree on stopping after this step.
            flag[0] = stop_requested
            dist.all_reduce(flag, op=dist.ReduceOp.MAX)
            if flag[0] > 0:
                break
            if rank == 0 and step % args.ckpt_every == 0:
                commit()
                report()
            if rank == 0 and step % 100 == 0:
                log(f"step {step} samples {samples} loss {loss.item():.5f}")
    except RuntimeError as e:
        # A collective failed: a peer vanished (preemption). The last commit stands.
        log(f"collective failed at step {step}: {str(e).splitlines()[0]}")
        os._exit(EX_TEMPFAIL)
    if rank == 0 and step > stored_step:
        commit()
        report()
    log(f"{'done' if code == 0 else 'stop'} at step {step} samples {samples} "
        f"({'samples done' if code == 0 else 'signal here' if stop_requested else 'signal to a peer'})"
        + (f", committed step {stored_step}" if rank == 0 else ""))
    if code == 0:
        dist.barrier()
        dist.destroy_process_group()
    else:
        # Skip the teardown: a peer may already be gone.
        sys.stderr.flush()
        os._exit(code)
    return code


if __name__ == "__main__":
    sys.exit(main())
