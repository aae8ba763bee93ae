#!/usr/bin/env python3
"""Emit the trace replay's invokers from the Vulkan registry.

usage: gen_invoke.py VK_XML OUT_CPP

A replayed call's arguments are decoded at run time (decode.cpp, from the
registry tables that also drove the capture's encoder) into one 8-byte slot
per parameter. An invoker calls a command's function pointer with the slots
cast back to the command's own parameter types: one per command signature of
vulkan_core.h, aliases sharing their target's, in a table sorted by name.
"""

import re
import sys

import vkxml

NOTE = '// Generated from vk.xml by libtrace/codegen/gen_invoke.py: do not edit.\n'


def param_type(p):
    """The C type of a parameter: `const float blendConstants[4]` -> `const float*`."""
    full = vkxml.declaration(p)
    name = p.find('name').text
    at = full.rfind(name)
    head, tail = full[:at].strip(), full[at + len(name):]
    return head + ('*' if re.search(r'\[', tail) else '')


def main(argv):
    if len(argv) != 3:
        sys.exit('usage: gen_invoke.py VK_XML OUT_CPP')
    reg = vkxml.load(argv[1])
    out = [NOTE, '#include "replay/trace/invoke.hpp"\n\n', 'namespace libtrace::replay_trace {\n\nnamespace {\n\n']
    made = {}
    table = []
    for name in sorted(reg.kept_cmds):
        target = vkxml.alias_target(reg, name)
        cmd = reg.commands[target]
        if target not in made:
            params = vkxml.params(cmd)
            ret = cmd.find('proto/type').text
            if ret == 'PFN_vkVoidFunction':
                continue
            args = ', '.join(f'*static_cast<{param_type(p)}*>(a[{i}])' for i, p in enumerate(params))
            call = f'reinterpret_cast<PFN_{target}>(f)({args})'
            fn = f'invoke_{target}'
            body = f'*static_cast<{ret}*>(r) = {call};' if ret != 'void' else f'(void)r;\n  {call};'
            out.append(f'void {fn}(PFN_vkVoidFunction f, void* const* a, void* r) {{\n  {body}\n}}\n\n')
            made[target] = fn
        table.append((name, made[target]))
    vkxml.write_table(argv[2], out, 'const NamedInvoker kInvokers', table, 'kInvokerCount', 'libtrace::replay_trace')


if __name__ == '__main__':
    main(sys.argv)
