#!/usr/bin/env python3
# Changes one integer value of one call in a gzip-container trace: the
# damaged captures of the replay's tests (a binding number, a view mask, a
# count) that no cut of whole calls can make. Written from the apitrace
# grammar alone, apart from trak's reader, so that the two cannot share a
# mistake.
#
#   edit_trace.py IN OUT CALL_NO PATH VALUE
#
# PATH names a value inside the call: an argument, then members and array
# elements ("pDescriptorWrites[0].dstBinding", "pRenderingInfo[0].viewMask").
# A pointer to one struct is an array of one, as the capture writes it.
# "#NAME" is the number the call records argument NAME under; "PATH@N" is
# byte N of the blob at PATH (a shader's code).
import gzip
import re
import sys


class Stream:
    def __init__(self, data):
        self.b = data
        self.p = 0

    def byte(self):
        v = self.b[self.p]
        self.p += 1
        return v

    def uint(self):
        v, shift = 0, 0
        while True:
            c = self.byte()
            v |= (c & 0x7F) << shift
            shift += 7
            if not c & 0x80:
                return v

    def string(self):
        n = self.uint()
        s = self.b[self.p:self.p + n]
        self.p += n
        return s.decode("utf-8", "replace")


def uint_bytes(v):
    out = bytearray()
    while True:
        c = v & 0x7F
        v >>= 7
        out.append(c | (0x80 if v else 0))
        if not v:
            return bytes(out)


class Reader:
    def __init__(self, data):
        self.s = Stream(data)
        self.functions, self.structs, self.enums, self.bitmasks = {}, {}, {}, {}

    def typed_sint(self):
        t = self.s.byte()
        v = self.s.uint()
        return -v if t == 0x03 else v

    # A value as (type, start, end, children): children are
    # [(name, value)] for structs, [value] for arrays.
    def value(self):
        s = self.s
        start = s.p
        t = s.byte()
        kids = []
        if t in (0x00, 0x01, 0x02):
            pass
        elif t in (0x03, 0x04, 0x0D):
            s.uint()
        elif t == 0x05:
            s.p += 4
        elif t == 0x06:
            s.p += 8
        elif t in (0x07, 0x08):
            n = s.uint()
            s.p += n
        elif t == 0x09:
            sid = s.uint()
            if sid not in self.enums:
                self.enums[sid] = [(s.string(), self.typed_sint()) for _ in range(s.uint())]
            self.typed_sint()
        elif t == 0x0A:
            sid = s.uint()
            if sid not in self.bitmasks:
                self.bitmasks[sid] = [(s.string(), s.uint()) for _ in range(s.uint())]
            s.uint()
        elif t == 0x0B:
            kids = [self.value() for _ in range(s.uint())]
        elif t == 0x0C:
            sid = s.uint()
            if sid not in self.structs:
                name = s.string()
                self.structs[sid] = (name, [s.string() for _ in range(s.uint())])
            kids = [(m, self.value()) for m in self.structs[sid][1]]
        elif t == 0x0E:
            kids = [self.value(), self.value()]
        elif t == 0x0F:
            for _ in range(s.uint()):
                s.uint()
        else:
            raise SystemExit(f"edit_trace: unknown value type {t:#x} at stream offset {start}")
        return (t, start, s.p, kids)

    def details(self, names, args):
        s = self.s
        while True:
            d = s.byte()
            if d == 0x00:
                return
            if d == 0x01:
                at = s.p
                i = s.uint()
                name = names[i] if i < len(names) else f"arg{i}"
                args["#" + name] = (0x04, at, s.p, [])
                args[name] = self.value()
            elif d == 0x02:
                args["(return)"] = self.value()
            elif d in (0x03, 0x05):
                s.uint()
            else:
                raise SystemExit(f"edit_trace: call detail {d:#x} is not written by trak")

    # Yields (call number, name, args) as each call is left.
    def calls(self):
        s = self.s
        version = s.uint()
        if version >= 6:
            s.uint()
            while s.string():
                s.string()
        entered = {}
        no = 0
        while s.p < len(s.b):
            event = s.byte()
            if event == 0x00:
                s.uint()  # thread
                fid = s.uint()
                if fid not in self.functions:
                    name = s.string()
                    self.functions[fid] = (name, [s.string() for _ in range(s.uint())])
                name, names = self.functions[fid]
                args = {}
                self.details(names, args)
                entered[no] = (name, names, args)
                no += 1
            elif event == 0x01:
                n = s.uint()
                name, names, args = entered.pop(n)
                self.details(names, args)
                yield n, name, args
            else:
                raise SystemExit(f"edit_trace: unknown event {event:#x} at stream offset {s.p - 1}")


def find(args, path):
    parts = re.findall(r"#?[A-Za-z_][A-Za-z0-9_()]*|\[\d+\]", path)
    v = args.get(parts[0])
    for part in parts[1:]:
        if v is None:
            break
        if part.startswith("["):
            i = int(part[1:-1])
            v = v[3][i] if v[0] == 0x0B and i < len(v[3]) else None
        else:
            v = dict(v[3]).get(part) if v[0] == 0x0C else None
    return v


def main():
    src, dst, call_no, path, value = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
    data = gzip.open(src, "rb").read()
    reader = Reader(data)
    for no, name, args in reader.calls():
        if no != call_no:
            continue
        if "@" in path:
            path, at = path.split("@")
            v = find(args, path)
            if v is None or v[0] != 0x08:
                raise SystemExit(f"edit_trace: call {no} {name} has no blob {path}")
            s = Stream(data)
            s.p = v[1] + 1
            s.uint()
            pos = s.p + int(at)
            with gzip.open(dst, "wb") as out:
                out.write(data[:pos] + bytes([value]) + data[pos + 1:])
            return
        v = find(args, path)
        if v is None or v[0] not in (0x03, 0x04):
            raise SystemExit(f"edit_trace: call {no} {name} has no integer {path}")
        if path.startswith("#"):
            new = uint_bytes(value)
        elif value >= 0:
            new = bytes([0x04]) + uint_bytes(value)
        else:
            new = bytes([0x03]) + uint_bytes(-value)
        with gzip.open(dst, "wb") as out:
            out.write(data[:v[1]] + new + data[v[2]:])
        return
    raise SystemExit(f"edit_trace: no call {call_no}")


main()
