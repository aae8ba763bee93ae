#!/usr/bin/env python3
"""What the capture tests compare in .foz archives, read independently of trak.

  foz_entries.py keys A.foz...          every (tag, hash) once, sorted: "tag hash"
  foz_entries.py same A.foz... -- B.foz...
      exit 0 when both sets of archives hold the same entries with the same
      decoded payloads (JSON and SPIR-V), whatever the order and compression
"""
import struct
import sys
import zlib


def entries(path):
    data = open(path, 'rb').read()
    out, pos = {}, 16
    while pos + 56 <= len(data):
        name = data[pos:pos + 40].decode()
        size, fmt = struct.unpack('<II', data[pos + 40:pos + 48])
        payload = data[pos + 56:pos + 56 + size]
        if len(payload) < size:
            break  # a torn tail: the entries before it are the archive
        if fmt == 2:
            payload = zlib.decompress(payload)
        out.setdefault((int(name[:24], 16), name[24:]), payload)
        pos += 56 + size
    return out


def union(paths):
    out = {}
    for p in paths:
        for k, v in entries(p).items():
            out.setdefault(k, v)
    return out


def main(argv):
    if argv[1] == 'keys':
        for tag, h in sorted(union(argv[2:])):
            print(tag, h)
        return 0
    split = argv.index('--')
    a, b = union(argv[2:split]), union(argv[split + 1:])
    ok = True
    for k in sorted(set(a) ^ set(b)):
        print('only in', 'first' if k in a else 'second', *k, file=sys.stderr)
        ok = False
    for k in sorted(set(a) & set(b)):
        if a[k] != b[k]:
            print('payloads differ:', *k, file=sys.stderr)
            ok = False
    print(f'{len(a)} and {len(b)} entries', 'alike' if ok else 'DIFFER', file=sys.stderr)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
