#!/usr/bin/env python3
"""t/lib-pbs.py NODES.json QSTAT.json|- RSTAT.txt|- [QUEUE]

What bf-holes --pbs should answer for captured pbsnodes -a -F json, qstat -f
-F json and pbs_rstat -f output, read here apart from lib/pbs.c (Python's
json module, datetime and zoneinfo, regular expressions) from the rules of
bf-holes(1), Live PBS.  Prints "time T", then "HOST UNTIL" for every usable
host, sorted, UNTIL 0 when there is none.  Times are read in the zone TZ
names.  "-" stands for empty output (no jobs, no reservations).
"""
import json
import os
import re
import sys
from datetime import datetime
from zoneinfo import ZoneInfo

ZONE = ZoneInfo(os.environ['TZ'])
PILOT_STATES = {'free', 'job-busy', 'job-exclusive', 'job-sharing'}


def seconds(text):
    """ctime() or pbs_rstat time in TZ; UNKNOWN is 0."""
    if text == 'UNKNOWN':
        return 0
    when = datetime.strptime(' '.join(text.split()), '%a %b %d %H:%M:%S %Y')
    return int(when.replace(tzinfo=ZONE).timestamp())


def vnodes(spec):
    """The vnode names of (a:ncpus=1)+(b:mem=2+c:ncpus=3)."""
    return re.findall(r'[(+]([^:+()]+)', spec)


def zero(value):
    if isinstance(value, (int, float)):
        return value == 0
    return re.fullmatch(r'0+[kmgtp]?[bw]?', str(value)) is not None


def reservations(path):
    """{id: [start, end, nodes]} of pbs_rstat -f."""
    out, cur = {}, None
    if path == '-':
        return out
    for line in open(path).read().split('\n'):
        if line.startswith('Resv ID: '):
            cur = out.setdefault(line[9:], [0, 0, []])
        elif ' = ' in line:
            key, value = line.split(' = ', 1)
            if key == 'reserve_start':
                cur[0] = seconds(value)
            elif key == 'reserve_end':
                cur[1] = seconds(value)
            elif key == 'resv_nodes':
                cur[2] = vnodes(value)
    return out


def main():
    nodes_doc = json.load(open(sys.argv[1]))
    jobs_doc = json.load(open(sys.argv[2])) if sys.argv[2] != '-' else {}
    resv = reservations(sys.argv[3])
    own = sys.argv[4] if len(sys.argv) > 4 else 'bf'
    now = int(nodes_doc['timestamp'])
    jobs = jobs_doc.get('Jobs', {})
    until, taken = {}, set()

    def claim(vnode, t):
        until[vnode] = min(t, until.get(vnode, t))

    for job in jobs.values():
        est = job.get('estimated', {})
        if job['job_state'] != 'Q' or 'exec_vnode' not in est or \
                'start_time' not in est:
            continue
        t = seconds(est['start_time'])
        if t > now:
            for v in vnodes(est['exec_vnode']):
                claim(v, t)
    for start, end, names in resv.values():
        if end and end <= now:
            continue
        for v in names:
            if start <= now:
                taken.add(v)
            else:
                claim(v, start)

    hosts = {}
    for name, node in nodes_doc.get('nodes', {}).items():
        states = set(node['state'].split(','))
        held = node.get('jobs', [])
        if not held:
            ok = states == {'free'} and all(
                zero(v) for v in node.get('resources_assigned', {}).values())
        else:
            ok = states <= PILOT_STATES and all(
                j in jobs and jobs[j]['queue'] == own for j in held)
        if name in taken:
            ok = False
        for rid in re.split(r'[, ]+', node.get('resv', '')):
            if not rid:
                continue
            if rid not in resv or resv[rid][0] <= now:
                ok = False
            else:
                claim(name, resv[rid][0])
        host = node.get('resources_available', {}).get('host') or \
            re.sub(r'\[[^][]*\]$', '', name)
        h = hosts.setdefault(host, [True, 0])
        h[0] = h[0] and ok
        if name in until and (h[1] == 0 or until[name] < h[1]):
            h[1] = until[name]

    print('time', now)
    for host in sorted(hosts):
        if hosts[host][0]:
            print(host, hosts[host][1])


main()
