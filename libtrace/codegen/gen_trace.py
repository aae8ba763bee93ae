#!/usr/bin/env python3
"""Emit the trace layer's entry points from the Vulkan registry.

usage: gen_trace.py VK_XML OUT_CPP

One function per command a plain `#include <vulkan/vulkan_core.h>` declares
(aliases included: a driver may hand out only the name its extension brings),
with the command's own signature. Each one does the same four things: find
its command's reflection entry, open a trace::Call over pointers to its
parameters (the hand-written hooks run and the enter event is written), call
the next layer, and close the call with the return value (the leave event).
What is recorded of each parameter is decided at run time from the registry
tables (libtrace/src/registry) that describe the same vk.xml, so the writer
and a reader of the stream cannot disagree.

Commands without a dispatchable handle (vkCreateInstance, vkEnumerate-
Instance*) and the two vkGet*ProcAddr are the layer's own business; for the
four that create and destroy instances and devices, the next step down is the
layer's bookkeeping (down_<name>), not the dispatch table.
"""

import sys

import vkxml

NOTE = '// Generated from vk.xml by libtrace/codegen/gen_trace.py: do not edit.\n'
NOT_WRAPPED = {'vkGetInstanceProcAddr', 'vkGetDeviceProcAddr', 'vkEnumerateInstanceVersion',
               'vkEnumerateInstanceExtensionProperties', 'vkEnumerateInstanceLayerProperties',
               'vkEnumerateDeviceLayerProperties'}
DOWN_CUSTOM = {'vkCreateInstance', 'vkDestroyInstance', 'vkCreateDevice', 'vkDestroyDevice'}


def main(argv):
    if len(argv) != 3:
        sys.exit('usage: gen_trace.py VK_XML OUT_CPP')
    reg = vkxml.load(argv[1])
    out = [NOTE, '#include "capture/trace/call.hpp"\n\n', 'namespace libtrace::capture::trace {\n\n']
    out.append('namespace {\n\n')
    table = []
    for name in sorted(reg.kept_cmds):
        if name in NOT_WRAPPED:
            continue
        cmd = vkxml.command(reg, name)
        params = vkxml.params(cmd)
        ret = cmd.find('proto/type').text
        first = params[0].find('type').text if params else None
        if name in DOWN_CUSTOM:
            level, down = ('Level::global' if name == 'vkCreateInstance' else
                           'Level::instance' if first in vkxml.INSTANCE_HANDLES else 'Level::device'), f'down_{name}'
        elif first in vkxml.INSTANCE_HANDLES:
            level, down = 'Level::instance', f'c.instance_table().{name[2:]}'
        elif first in vkxml.DEVICE_HANDLES:
            level, down = 'Level::device', f'c.device_table().{name[2:]}'
        else:
            continue
        decl = ', '.join(vkxml.declaration(p) for p in params)
        names = [p.find('name').text for p in params]
        args = ', '.join(names)
        ptrs = ', '.join(f'const_cast<void*>(static_cast<const void*>(&{n}))' for n in names)
        fn = f'w_{name}'
        body = [f'VKAPI_ATTR {ret} VKAPI_CALL {fn}({decl}) {{\n',
                f'  static const CommandInfo& info = command_info("{name}", {level});\n',
                f'  void* a[] = {{{ptrs}}};\n',
                '  Call c(info, a);\n']
        if ret == 'void':
            body += [f'  if (c.can_call()) {down}({args});\n', '  c.leave(nullptr);\n']
        else:
            body += [f'  {ret} r{{}};\n', f'  if (c.can_call()) r = {down}({args});\n',
                     '  else r = c.failed<' + ret + '>();\n', '  c.leave(&r);\n', '  return r;\n']
        body.append('}\n\n')
        out += body
        table.append((name, fn))
    rows = [(n, f'reinterpret_cast<PFN_vkVoidFunction>({f})') for n, f in table]
    vkxml.write_table(argv[2], out, 'const EntryPoint kEntryPoints', rows, 'kEntryPointCount',
                      'libtrace::capture::trace')


if __name__ == '__main__':
    main(sys.argv)
