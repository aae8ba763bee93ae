#!/usr/bin/env python3
"""Emit the C++ reflection tables of registry.hpp from the Vulkan registry.

usage: gen_registry.py VK_XML OUT_CPP

Covers what a plain `#include <vulkan/vulkan_core.h>` declares, as vkxml.py
(the one vk.xml parser of every generator here) selects it.

Every value the compiler can know (offsets, sizes, sType and enumerant values,
array bounds) is written as a C++ expression over the header's own names, so
the tables cannot drift from the headers; the generator only needs its own
numbers to sort the lookup indexes, and static_asserts check that order.
The generator also lays every struct out by the LP64 C rules from what it
parsed and asserts that against sizeof/offsetof: a member whose pointer depth,
array bound or bitfield width was misread fails the build instead of producing
a wrong table.

The tables hold no pointers: the tools are static PIEs, and every pointer in
constant data is a relocation that the start-up code patches (24,000 of them
here, ~0.5 ms of every run). Names are positions in one string table
(kStrings, each name once), links to structs, enums and commands are indexes,
and member, value and structextends lists are runs of flat tables; the
accessors of registry.hpp turn them back into pointers and spans.

"""

import sys

from vkxml import Decl, api_ok, load, parse_int, write

# Element types whose registry name says everything; the rest go by category.
BASIC = {
    'uint8_t': 'u8', 'uint16_t': 'u16', 'uint32_t': 'u32', 'int32_t': 's32',
    'uint64_t': 'u64', 'int64_t': 's64', 'float': 'f32', 'double': 'f64',
    'int': 's32',   # file descriptors (VkImportMemoryFdInfoKHR::fd)
    'size_t': 'size', 'VkBool32': 'bool32', 'VkDeviceSize': 'u64',
    'VkDeviceAddress': 'u64', 'VkSampleMask': 'u32',
    # Registry-level Flags, used bare by a few members; no FlagBits behind them.
    'VkFlags': 'bitmask', 'VkFlags64': 'bitmask',
}

# (size, align) on LP64, for the layout check only.
LAYOUT = {
    'char': (1, 1), 'int8_t': (1, 1), 'uint8_t': (1, 1),
    'int16_t': (2, 2), 'uint16_t': (2, 2),
    'int': (4, 4), 'int32_t': (4, 4), 'uint32_t': (4, 4), 'float': (4, 4),
    'int64_t': (8, 8), 'uint64_t': (8, 8), 'double': (8, 8), 'size_t': (8, 8),
    'VkBool32': (4, 4), 'VkSampleMask': (4, 4), 'VkFlags': (4, 4),
    'VkFlags64': (8, 8), 'VkDeviceSize': (8, 8), 'VkDeviceAddress': (8, 8),
}
PTR = (8, 8)


HEADER_NOTE = '// Generated from vk.xml by libtrace/codegen/gen_registry.py: do not edit.\n'


class Emitter:
    def __init__(self, reg):
        self.reg = reg
        kept = reg.kept_types
        cat = reg.category
        self.structs = sorted(n for n in kept
                              if cat(n) in ('struct', 'union') and not reg.types[n].get('alias'))
        self.struct_index = {n: i for i, n in enumerate(self.structs)}
        self.struct_aliases = sorted(n for n in kept
                                     if cat(n) in ('struct', 'union') and reg.types[n].get('alias'))
        self.build_enums()
        canon_cmds = sorted(reg.kept_cmds)
        self.commands = canon_cmds
        self.command_index = {n: i for i, n in enumerate(canon_cmds)}
        self.layout_cache = {}

    # -- enums ------------------------------------------------------------

    def build_enums(self):
        reg = self.reg
        kept = reg.kept_types
        # Enum name -> (flags typedef name or None, is_64bit).
        enums = {}
        flags_of = {}
        for n in kept:
            t = reg.types.get(n)
            if t is None or t.get('alias'):
                continue
            if t.get('category') == 'enum':
                enums.setdefault(n, [None, self.wide_enum(n)])
            elif t.get('category') == 'bitmask':
                bits = t.get('requires') or t.get('bitvalues')
                wide = reg.basetype_target(n) == 'VkFlags64'
                # A Flags typedef with no FlagBits yet is its own (empty) Enum so
                # that every bitmask member has enum_info and find_enum works.
                key = bits or n
                if enums.get(key, [None])[0] is not None:
                    raise SystemExit(f'{key} backs both {enums[key][0]} and {n}')
                enums[key] = [n, wide]
                flags_of[n] = key
        self.enum_names = sorted(enums)
        self.enum_index = {n: i for i, n in enumerate(self.enum_names)}
        self.enum_meta = enums
        self.flags_of = flags_of
        self.enum_values = {n: self.values_of(n) for n in self.enum_names}
        aliases = {}
        for n, key in flags_of.items():
            if n != key:
                aliases[n] = key
        for n in kept:
            t = reg.types.get(n)
            if t is not None and t.get('alias') and t.get('category') in ('enum', 'bitmask'):
                target = reg.canonical(n)
                aliases[n] = flags_of.get(target, target)
        self.enum_aliases = sorted((a, k) for a, k in aliases.items() if k in self.enum_index)

    def wide_enum(self, name):
        block = self.reg.enum_blocks.get(name)
        return block is not None and block.get('bitwidth') == '64'

    def values_of(self, enum):
        """[(name, value, is_alias)] sorted by value, the non-alias first."""
        reg = self.reg
        raw = []   # (name, value|None, alias|None), in registry order
        block = reg.enum_blocks.get(enum)
        if block is not None:
            for e in block.findall('enum'):
                if not api_ok(e):
                    continue
                if e.get('alias'):
                    raw.append((e.get('name'), None, e.get('alias')))
                elif e.get('bitpos') is not None:
                    raw.append((e.get('name'), 1 << int(e.get('bitpos')), None))
                else:
                    raw.append((e.get('name'), parse_int(e.get('value')), None))
        raw += reg.ext_values.get(enum, [])
        known = {n: v for n, v, a in raw if a is None}
        alias_of = {n: a for n, v, a in raw if a is not None}

        def resolve(n, depth=0):
            if n in known:
                return known[n]
            if n in alias_of and depth < 8:
                return resolve(alias_of[n], depth + 1)
            raise KeyError(f'{enum}: cannot resolve enumerant {n}')

        out = [(n, resolve(n), a is not None) for n, v, a in raw]
        order = {n: i for i, (n, v, a) in enumerate(raw)}
        out.sort(key=lambda x: (x[1], x[2], order[x[0]]))
        return out

    # -- member description -------------------------------------------------

    def classify(self, d):
        """(Type, nested struct, enum) of a declaration's element type."""
        reg = self.reg
        t = d.type
        canon = reg.canonical(t)
        cat = reg.category(canon)
        if t == 'void':
            return ('pnext' if d.name == 'pNext' and d.depth == 1 else 'void_ptr'), None, None
        if t == 'char':
            return 'char_ptr', None, None
        if t in BASIC:
            return BASIC[t], None, None
        if cat == 'handle':
            return 'handle', None, None
        if cat == 'enum':
            return 'enum_', None, canon
        if cat == 'bitmask':
            return 'bitmask', None, self.flags_of.get(canon)
        if cat == 'struct':
            return 'struct_', canon, None
        if cat == 'union':
            return 'union_', canon, None
        if cat == 'funcpointer':
            return 'function_ptr', None, None
        if cat == 'basetype':
            target = reg.basetype_target(canon)
            if target in BASIC:
                return BASIC[target], None, None
        return 'other', None, None

    def member_init(self, decls, i, offset_expr, size_expr):
        d = decls[i]
        ty, nested, enum = self.classify(d)
        names = [x.name for x in decls]
        len_member = -1
        if d.len:
            first = d.len.split(',')[0]
            if first in names:
                len_member = names.index(first)
        fixed = ' * '.join(d.dims) if d.dims else '0'
        nested_index = self.struct_index[nested] if nested in self.struct_index else 'kNoIndex'
        enum_index = self.enum_index[enum] if enum in self.enum_index else 'kNoIndex'
        len_pos = self.strings.add(d.len) if d.len else 'kNoString'
        bit_offset = getattr(d, 'bit_offset', 0)
        # In the order of registry.hpp's Member.
        return (f'{{{self.strings.add(d.name)}, {offset_expr}, {size_expr}, {self.strings.add(d.type)}, '
                f'{len_pos}, {fixed}, {d.bits}, {nested_index}, {enum_index}, {len_member}, Type::{ty}, '
                f'{d.depth}, {cbool(d.is_const)}, {cbool(d.optional)}, {bit_offset}}},  // {d.name}')

    # -- layout check (LP64) -------------------------------------------------

    def elem_layout(self, d):
        if d.depth:
            return PTR
        return self.type_layout(d.type)

    def type_layout(self, t):
        reg = self.reg
        t = reg.canonical(t)
        if t in LAYOUT:
            return LAYOUT[t]
        cat = reg.category(t)
        if cat in ('handle', 'funcpointer'):
            return PTR
        if cat == 'enum':
            return (8, 8) if self.wide_enum(t) else (4, 4)
        if cat == 'bitmask':
            return LAYOUT[reg.basetype_target(t)]
        if cat in ('struct', 'union'):
            lay = self.struct_layout(t)
            return (lay[0], lay[1]) if lay else None
        if cat == 'basetype' and reg.basetype_target(t) in LAYOUT:
            return LAYOUT[reg.basetype_target(t)]
        return None   # StdVideo* and the like: declared in another header

    def struct_layout(self, name):
        """(size, align, {member: offset}, {member: (unit offset, bit offset)})."""
        if name in self.layout_cache:
            return self.layout_cache[name]
        t = self.reg.types[name]
        union = t.get('category') == 'union'
        bit = 0          # position in bits
        size_max, align = 0, 1
        offsets, bits = {}, {}
        for m in t.findall('member'):
            if not api_ok(m):
                continue
            d = Decl(m)
            lay = self.elem_layout(d)
            if lay is None:
                self.layout_cache[name] = None
                return None
            size, al = lay
            count = 1
            for dim in d.dims:
                count *= int(dim) if dim.isdigit() else self.reg.constants[dim]
            align = max(align, al)
            if union:
                offsets[d.name] = 0
                size_max = max(size_max, size * count)
                continue
            if d.bits:
                unit = 8 * size
                if bit // unit != (bit + d.bits - 1) // unit:
                    bit = -(-bit // unit) * unit
                bits[d.name] = (bit // unit * size, bit % unit)
                bit += d.bits
                continue
            byte = -(-bit // 8)
            byte = -(-byte // al) * al
            offsets[d.name] = byte
            bit = (byte + size * count) * 8
        total = size_max if union else -(-bit // 8)
        total = -(-total // align) * align
        self.layout_cache[name] = (total, align, offsets, bits)
        return self.layout_cache[name]

    # -- output -------------------------------------------------------------

    def run(self):
        reg = self.reg
        out = [HEADER_NOTE]
        nplat = len(reg.skipped_ext['platform'])
        nprov = len(reg.skipped_ext['provisional'])
        n_alias_cmds = sum(1 for c in self.commands if reg.commands[c].get('alias'))
        n_skipped_structs = sum(1 for t in reg.skipped_types if reg.category(t) in ('struct', 'union'))
        out.append(
            f'//\n// {len(self.structs)} structs/unions ({len(self.struct_aliases)} more alias names), '
            f'{len(self.enum_names)} enums/bitmasks, {len(self.commands)} commands '
            f'({n_alias_cmds} of them aliases).\n'
            f'// Skipped, as vulkan_core.h does not declare them: {nplat} platform and '
            f'{nprov} provisional extensions,\n'
            f'// and what only they require: {len(reg.skipped_types)} types ({n_skipped_structs} structs/unions), '
            f'{len(reg.skipped_cmds)} commands, {len(reg.skipped_values)} enumerants.\n'
            f'// Also skipped: {len(reg.skipped_ext["disabled"])} disabled extensions'
            f' and {len(reg.skipped_ext["other api"])} for other APIs.\n'
            '//\n'
            '// No pointer anywhere (names are positions in kStrings, links are indexes,\n'
            '// arrays are runs of the flat tables): all of it is constant data that a\n'
            '// static PIE need not relocate at start-up.\n\n')
        # Every table first, so that the string table holds every name.
        self.strings = Strings()
        self.members = []   # kMembers rows, comment lines included
        self.n_members = 0
        tables = [self.emit_enums(), self.emit_structs(), self.emit_commands(), self.emit_indexes(),
                  self.emit_formats()]
        members = [f'constexpr Member kMembers[{self.n_members}] = {{\n'] + self.members + ['};\n\n']
        out.append('#include "registry/registry.hpp"\n#include "registry/registry_internal.hpp"\n\n#include <algorithm>\n#include <cstddef>\n'
                   '#include <cstdint>\n#include <string_view>\n\nnamespace libtrace::registry {\nnamespace detail {\n\n')
        out.append(self.strings.emit())
        out.append(tables[0])
        out += members
        out += tables[1:]
        out.append(self.emit_sorted_checks())
        out.append('}  // namespace detail\n\n'
                   'std::span<const Struct> structs() { return detail::kStructs; }\n'
                   'std::span<const Enum> enums() { return detail::kEnums; }\n'
                   'std::span<const Command> commands() { return detail::kCommands; }\n'
                   'std::span<const FormatInfo> formats() { return detail::kFormats; }\n\n'
                   '}  // namespace libtrace::registry\n')
        out.append(self.emit_layout_checks())
        return ''.join(out)

    def emit_enums(self):
        out = [f'constexpr EnumValue kEnumValues[{sum(len(v) for v in self.enum_values.values())}] = {{\n']
        self.values_run = {}
        first = 0
        for n in self.enum_names:
            vals = self.enum_values[n]
            self.values_run[n] = (first, len(vals))
            if not vals:
                continue
            out.append(f'    // {first}: {n}\n')
            for name, _, alias in vals:
                out.append(f'    {{{self.strings.add(name)}, {cbool(alias)}, {name}}},\n')
            first += len(vals)
        out.append('};\n')
        for n in self.enum_names:
            a, count = self.values_run[n]
            if count:
                out.append(f'static_assert(std::ranges::is_sorted(kEnumValues + {a}, kEnumValues + {a + count}, {{}}, '
                           f'&EnumValue::value));  // {n}\n')
        out.append(f'\nconstexpr Enum kEnums[{len(self.enum_names)}] = {{\n')
        for i, n in enumerate(self.enum_names):
            flags, wide = self.enum_meta[n]
            a, count = self.values_run[n]
            flags_pos = self.strings.add(flags) if flags else 'kNoString'
            out.append(f'    {{{self.strings.add(n)}, {flags_pos}, {a}, {count}, {cbool(flags is not None)}, '
                       f'{cbool(wide)}}},  // {i}: {n}\n')
        out.append('};\n\n')
        return ''.join(out)

    def add_members(self, what, inits):
        """Append a run to kMembers: its (first, count)."""
        first = self.n_members
        self.members.append(f'    // {first}: {what}\n')
        self.members += [f'    {x}\n' for x in inits]
        self.n_members += len(inits)
        return first, len(inits)

    def emit_structs(self):
        reg = self.reg
        runs, extends = [], []
        for i, n in enumerate(self.structs):
            t = reg.types[n]
            decls = [Decl(m) for m in t.findall('member') if api_ok(m)]
            lay = self.struct_layout(n)
            inits = []
            prev = None     # last non-bitfield member: a bitfield run starts after it
            run_start = 0   # generator offset of the run's first storage unit
            for k, d in enumerate(decls):
                if not d.bits:
                    prev = d.name
                    inits.append(self.member_init(decls, k, f'offsetof({n}, {d.name})',
                                                  f'sizeof({n}::{d.name})'))
                    continue
                if lay is None:
                    raise SystemExit(f'{n}: bitfield {d.name} in a struct of unknown layout')
                unit_off, d.bit_offset = lay[3][d.name]
                if k == 0 or decls[k - 1].bits == 0:
                    run_start = unit_off
                # offsetof does not apply to bitfields: the unit lies after the
                # member before the run, aligned, plus the units before it in
                # the run (the byte distances hold for any ABI with these units).
                usize = self.type_layout(d.type)[0]
                base = (f'(offsetof({n}, {prev}) + sizeof({n}::{prev}) + {usize - 1}) / {usize} * {usize}'
                        if prev else '0')
                inits.append(self.member_init(decls, k, f'{base} + {unit_off - run_start}',
                                              f'sizeof({d.type})'))
            first, count = self.add_members(n, inits)
            check_fits(n, 'members', count, 0xffff)
            ext = t.get('structextends')
            ext = ext.split(',') if ext else []
            check_fits(n, 'structextends', len(ext), 0xffff)
            runs.append((first, count, len(extends), len(ext)))
            extends += [(self.strings.add(x), x) for x in ext]
        out = [f'constexpr std::uint32_t kExtends[{max(len(extends), 1)}] = {{\n']
        out += [f'    {pos},  // {x}\n' for pos, x in extends] or ['    0,  // none at all\n']
        out.append(f'}};\n\nconstexpr Struct kStructs[{len(self.structs)}] = {{\n')
        for i, n in enumerate(self.structs):
            t = reg.types[n]
            stype = self.stype_of(n) or '-1'
            first, count, ext_first, ext_count = runs[i]
            out.append(f'    {{{self.strings.add(n)}, {stype}, sizeof({n}), alignof({n}), {first}, {count}, '
                       f'{ext_count}, {ext_first}, {cbool(t.get("category") == "union")}, '
                       f'{cbool(t.get("returnedonly") == "true")}}},  // {i}: {n}\n')
        out.append('};\n\n')
        return ''.join(out)

    def stype_of(self, name):
        for m in self.reg.types[name].findall('member'):
            if m.find('name').text == 'sType' and m.get('values'):
                return m.get('values')
        return None

    def emit_commands(self):
        reg = self.reg
        check_fits('commands', 'entries', len(self.commands), 0xffff)
        params = {}   # command index -> run of kMembers
        for i, n in enumerate(self.commands):
            c = reg.commands[n]
            if c.get('alias'):
                continue
            decls = [Decl(p) for p in c.findall('param') if api_ok(p)]
            params[i] = self.add_members(n, [self.member_init(decls, k, '0', '0') for k in range(len(decls))])
            check_fits(n, 'params', params[i][1], 0xffff)
        out = [f'constexpr Command kCommands[{len(self.commands)}] = {{\n']
        for i, n in enumerate(self.commands):
            c = reg.commands[n]
            target = c.get('alias') or n
            while reg.commands[target].get('alias'):
                target = reg.commands[target].get('alias')
            ti = self.command_index[target]
            ret = reg.commands[target].find('proto/type').text
            alias = ti if target != n else 'kNoIndex'
            first, count = params[ti]
            out.append(f'    {{{self.strings.add(n)}, {self.strings.add(ret)}, {first}, {count}, {alias}}},'
                       f'  // {i}: {n}\n')
        out.append('};\n\n')
        return ''.join(out)

    def emit_indexes(self):
        check_fits('structs', 'entries', len(self.structs), 0xffff)
        check_fits('enums', 'entries', len(self.enum_names), 0xffff)
        out = []
        # Structs by sType value, for find_struct(VkStructureType).
        svals = {name: v for name, v, _ in self.enum_values['VkStructureType']}
        by_stype = sorted((svals[self.stype_of(n)], self.stype_of(n), i)
                          for i, n in enumerate(self.structs) if self.stype_of(n))
        out.append(f'constexpr STypeEntry stype_table[{len(by_stype)}] = {{\n')
        out += [f'    {{{name}, {i}}},  // {self.structs[i]}\n' for _, name, i in by_stype]
        out.append('};\nstatic_assert(std::ranges::is_sorted(stype_table, {}, &STypeEntry::s_type));\n\n')
        out.append(f'constexpr StructAlias struct_alias_table[{len(self.struct_aliases)}] = {{\n')
        for a in self.struct_aliases:
            k = self.reg.canonical(a)
            out.append(f'    {{{self.strings.add(a)}, {self.struct_index[k]}}},  // {a} -> {k}\n')
        out.append('};\n')
        out.append(f'constexpr EnumAlias enum_alias_table[{len(self.enum_aliases)}] = {{\n')
        for a, k in self.enum_aliases:
            out.append(f'    {{{self.strings.add(a)}, {self.enum_index[k]}}},  // {a} -> {k}\n')
        out.append('};\n\n')
        out.append('std::span<const STypeEntry> stype_index() { return stype_table; }\n'
                   'std::span<const StructAlias> struct_aliases() { return struct_alias_table; }\n'
                   'std::span<const EnumAlias> enum_aliases() { return enum_alias_table; }\n\n')
        return ''.join(out)

    def emit_formats(self):
        """kFormats: what <formats> says of each format the header declares, by value."""
        values = {name: v for name, v, _ in self.enum_values['VkFormat']}
        rows = []
        for f in (self.reg.formats.findall('format') if self.reg.formats is not None else []):
            name = f.get('name')
            if name not in values:
                continue
            w, h, d = (int(x) for x in (f.get('blockExtent') or '1,1,1').split(','))
            bits = {c.get('name'): c.get('bits') for c in f.findall('component')}
            depth = int(bits['D']) if bits.get('D', 'compressed').isdigit() else 0
            stencil = int(bits['S']) if bits.get('S', 'compressed').isdigit() else 0
            rows.append((values[name], name, int(f.get('blockSize')), w, h, d, depth, stencil,
                         len(f.findall('plane'))))
        rows.sort()
        out = [f'constexpr FormatInfo kFormats[{len(rows)}] = {{\n']
        for _, name, size, w, h, d, depth, stencil, planes in rows:
            out.append(f'    {{{name}, {size}, {w}, {h}, {d}, {depth}, {stencil}, {planes}}},\n')
        out.append('};\nstatic_assert(std::ranges::is_sorted(kFormats, {}, &FormatInfo::format));\n\n')
        return ''.join(out)

    def emit_sorted_checks(self):
        """The lookups binary-search by name: the tables must be in std::string_view order."""
        return ('namespace {\n\n'
                'template <class T, std::size_t N>\n'
                'constexpr bool sorted_by_name(const T (&table)[N]) {\n'
                '  for (std::size_t i = 1; i < N; ++i)\n'
                '    if (!(std::string_view(kStrings + table[i - 1].name_pos) < '
                'std::string_view(kStrings + table[i].name_pos))) return false;\n'
                '  return true;\n'
                '}\n\n'
                '}  // namespace\n\n'
                'static_assert(sorted_by_name(kStructs));\n'
                'static_assert(sorted_by_name(kEnums));\n'
                'static_assert(sorted_by_name(kCommands));\n'
                'static_assert(sorted_by_name(struct_alias_table));\n'
                'static_assert(sorted_by_name(enum_alias_table));\n\n')

    def emit_layout_checks(self):
        out = ['\n// The generator\'s own LP64 layout of what it parsed, against the compiler.\n'
               '#if UINTPTR_MAX == UINT64_MAX\n']
        unchecked = 0
        for n in self.structs:
            lay = self.struct_layout(n)
            if lay is None:
                unchecked += 1
                continue
            out.append(f'static_assert(sizeof({n}) == {lay[0]} && alignof({n}) == {lay[1]});\n')
            for m, off in lay[2].items():
                out.append(f'static_assert(offsetof({n}, {m}) == {off});\n')
        out.append(f'#endif  // {unchecked} structs hold types of the video headers and go unchecked\n')
        return ''.join(out)


class Strings:
    """kStrings: every name once, null-terminated; position 0 is "" (kNoString)."""

    def __init__(self):
        self.pos = {'': 0}
        self.size = 1

    def add(self, s):
        if s not in self.pos:
            self.pos[s] = self.size
            self.size += len(s.encode('utf-8')) + 1
        return self.pos[s]

    def emit(self):
        # Adjacent literals, one a name: each ends in an explicit \0 (escapes
        # are read before literals are joined), and the whole adds one more.
        out = ['constexpr char kStrings[] =\n']
        for s, p in self.pos.items():
            out.append(f'    {cstr_nul(s)}  // {p}\n')
        out.append(';\n')
        out.append(f'static_assert(sizeof kStrings == {self.size} + 1);  // and the literal\'s own null\n\n')
        return ''.join(out)


def check_fits(what, field, n, limit):
    if n >= limit:
        raise SystemExit(f'{what}: {n} {field} do not fit the table\'s {limit:#x}')


def cstr_nul(s):
    """A string literal of s and its terminating null."""
    return cstr(s)[:-1] + '\\0"'


def cstr(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def cbool(b):
    return 'true' if b else 'false'


def main(argv):
    if len(argv) != 3:
        sys.exit('usage: gen_registry.py VK_XML OUT_CPP')
    write(argv[2], Emitter(load(argv[1])).run())


if __name__ == '__main__':
    main(sys.argv)
