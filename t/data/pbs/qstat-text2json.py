#!/usr/bin/env python3
"""qstat-text2json.py TIMESTAMP < QSTAT-F-TEXT > QSTAT-F-JSON

Writes the jobs of a captured `qstat -f` (text) the way `qstat -f -F json`
prints them, so that a real queued job's estimated.start_time and
estimated.exec_vnode can be replayed through bf-holes --pbs.  The rules are
those of OpenPBS (src/cmds/qstat.c, src/lib/Libcmds/pbs_json.c; the list in
t/data/pbs/SOURCES.md), checked against the real qstat -f -F json of
ALCF Polaris:

  - "Job Id: ID" starts a job, "    NAME = VALUE" is an attribute, and a
    line that starts with a tab continues the value before it (qstat -f
    wraps at 78 columns; the line break and the tab are dropped);
  - NAME.RES = VALUE (Resource_List, estimated, ...) become an object NAME
    of RES: VALUE; Variable_List becomes an object of NAME: VALUE, split at
    its commas;
  - a value strtod() reads whole is printed bare, as the text it is, unless
    it starts with 0 and is 1 or more (then it stays a string); any other
    value is a JSON string;
  - the envelope has TIMESTAMP (the text shows none) and the jobs' server
    as pbs_server; pbs_version is left out, the text does not show it;
  - layout of the writer before 23.06.06: four spaces a level,
    "key":value.
"""
import json
import re
import sys

# What strtod() reads whole, for the values of a capture: decimal numbers.
# (It would also read hexadecimal, inf and nan; the capture has none.)
NUMBER = re.compile(r'\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$')


def typed(value):
    if NUMBER.match(value) and value.strip() and \
            not (value[0] == '0' and float(value) >= 1):
        return value
    return json.dumps(value, ensure_ascii=False)


def read_jobs(text):
    jobs, job, name = [], None, None
    for line in text.split('\n'):
        if line.startswith('Job Id: '):
            job = [line[len('Job Id: '):], []]
            jobs.append(job)
        elif line.startswith('\t') and job is not None and name is not None:
            job[1][-1][1] += line[1:]
        elif line.startswith('    ') and ' = ' in line and job is not None:
            name, value = line[4:].split(' = ', 1)
            job[1].append([name, value])
        elif line.strip():
            sys.exit('qstat-text2json: cannot read: ' + line)
    return jobs


def attributes(attrs):
    out = []		# [key, value] with value a text or a list (object)
    for name, value in attrs:
        if '.' in name:
            parent, res = name.split('.', 1)
            group = next((v for k, v in out if k == parent and
                          isinstance(v, list)), None)
            if group is None:
                group = []
                out.append([parent, group])
            group.append([res, typed(value)])
        elif name == 'Variable_List':
            pairs = [v.split('=', 1) for v in value.split(',')]
            out.append([name, [[k, typed(v)] for k, v in pairs]])
        else:
            out.append([name, typed(value)])
    return out


def write(obj, level, fp):
    pad = ' ' * (4 * level)
    for i, (key, value) in enumerate(obj):
        fp.write(',\n' if i else '\n')
        if isinstance(value, list):
            fp.write('%s%s:{' % (pad, json.dumps(key)))
            write(value, level + 1, fp)
            fp.write('\n%s}' % pad)
        else:
            fp.write('%s%s:%s' % (pad, json.dumps(key), value))


def main():
    jobs = read_jobs(sys.stdin.read())
    server = next(v for k, v in jobs[0][1] if k == 'server')
    top = [['timestamp', sys.argv[1]], ['pbs_server', json.dumps(server)],
           ['Jobs', [[jid, attributes(attrs)] for jid, attrs in jobs]]]
    sys.stdout.write('{')
    write(top, 1, sys.stdout)
    sys.stdout.write('\n}\n')


main()
