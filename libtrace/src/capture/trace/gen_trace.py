#!/usr/bin/env python3
"""Emit the trace layer's entry points from the Vulkan registry.

usage: gen_trace.py GEN_REGISTRY_PY VK_XML OUT_CPP

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

import importlib.util
import sys

NOTE = '// Generated from vk.xml by libtrace/src/capture/gen_trace.py: do not edit.\n'
INSTANCE_HANDLES = {'VkInstance', 'VkPhysicalDevice'}
DEVICE_HANDLES = {'VkDevice', 'VkQueue', 'VkCommandBuffer'}
NOT_WRAPPED = {'vkGetInstanceProcAddr', 'vkGetDeviceProcAddr', 'vkEnumerateInstanceVersion',
               'vkEnumerateInstanceExtensionProperties', 'vkEnumerateInstanceLayerProperties',
               'vkEnumerateDeviceLayerProperties'}
DOWN_CUSTOM = {'vkCreateInstance', 'vkDestroyInstance', 'vkCreateDevice', 'vkDestroyDevice'}


def load(path):
    spec = importlib.util.spec_from_file_location('gen_registry', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(argv):
    if len(argv) != 4:
        sys.exit('usage: gen_trace.py GEN_REGISTRY_PY VK_XML OUT_CPP')
    gen = load(argv[1])
    reg = gen.Registry(argv[2])
    reg.select()
    out = [NOTE, '#include "capture/trace/call.hpp"\n\n', 'namespace libtrace::capture::trace {\n\n']
    out.append('namespace {\n\n')
    table = []
    for name in sorted(reg.kept_cmds):
        if name in NOT_WRAPPED:
            continue
        cmd = reg.commands[name]
        while cmd.get('alias'):
            cmd = reg.commands[cmd.get('alias')]
        params = [p for p in cmd.findall('param') if gen.api_ok(p)]
        ret = cmd.find('proto/type').text
        first = params[0].find('type').text if params else None
        if name in DOWN_CUSTOM:
            level, down = ('Level::global' if name == 'vkCreateInstance' else
                           'Level::instance' if first in INSTANCE_HANDLES else 'Level::device'), f'down_{name}'
        elif first in INSTANCE_HANDLES:
            level, down = 'Level::instance', f'c.instance_table().{name[2:]}'
        elif first in DEVICE_HANDLES:
            level, down = 'Level::device', f'c.device_table().{name[2:]}'
        else:
            continue
        decl = ', '.join(''.join(p.itertext()).strip() for p in params)
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
    out.append('}  // namespace\n\n')
    out.append(f'const EntryPoint kEntryPoints[] = {{\n')
    out += [f'    {{"{n}", reinterpret_cast<PFN_vkVoidFunction>({f})}},\n' for n, f in table]
    out.append('};\n')
    out.append(f'const std::size_t kEntryPointCount = {len(table)};\n\n')
    out.append('}  // namespace libtrace::capture::trace\n')
    with open(argv[3], 'w', encoding='utf-8') as f:
        f.write(''.join(out))


if __name__ == '__main__':
    main(sys.argv)
