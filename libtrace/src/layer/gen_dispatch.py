#!/usr/bin/env python3
"""Emit a Vulkan layer's dispatch tables from the Vulkan registry.

usage: gen_dispatch.py GEN_REGISTRY_PY VK_XML OUT_HPP OUT_CPP

A layer calls down the chain through the function pointers the next layer
hands out. This writes two tables of them, one member per command that a
plain `#include <vulkan/vulkan_core.h>` declares (the command set of
gen_registry.py, whose registry parser is imported from GEN_REGISTRY_PY so
both generators see the same Vulkan):

  InstanceTable  commands dispatched on a VkInstance or VkPhysicalDevice
  DeviceTable    commands dispatched on a VkDevice, VkQueue or VkCommandBuffer

Aliases (vkCmdDrawIndirectCountKHR beside vkCmdDrawIndirectCount) are members
of their own: a driver may hand out only the name its enabled extension
brings. Members are the command names without "vk". Global commands
(vkCreateInstance, vkEnumerateInstance*) have no dispatchable handle and no
place in either table.
"""

import importlib.util
import sys

HEADER_NOTE = '// Generated from vk.xml by libtrace/src/layer/gen_dispatch.py: do not edit.\n'

INSTANCE_HANDLES = {'VkInstance', 'VkPhysicalDevice'}
DEVICE_HANDLES = {'VkDevice', 'VkQueue', 'VkCommandBuffer'}


def load_registry_module(path):
    spec = importlib.util.spec_from_file_location('gen_registry', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def first_param_type(reg, name):
    cmd = reg.commands[name]
    while cmd.get('alias'):
        cmd = reg.commands[cmd.get('alias')]
    params = [p for p in cmd.findall('param') if reg_api_ok(p)]
    return params[0].find('type').text if params else None


reg_api_ok = None


def split(reg):
    instance, device = [], []
    for name in sorted(reg.kept_cmds):
        first = first_param_type(reg, name)
        if first in INSTANCE_HANDLES:
            instance.append(name)
        elif first in DEVICE_HANDLES:
            device.append(name)
    return instance, device


def table(name, what, cmds):
    out = [f'// {what}: {len(cmds)} commands.\n', f'struct {name} {{\n']
    out += [f'  PFN_{c} {c[2:]} = nullptr;\n' for c in cmds]
    out.append('};\n\n')
    return ''.join(out)


def loader(fn, table_type, handle_type, gpa_type, cmds):
    out = [f'void {fn}({table_type}& t, {handle_type} handle, {gpa_type} gpa) {{\n']
    out += [f'  t.{c[2:]} = reinterpret_cast<PFN_{c}>(gpa(handle, "{c}"));\n' for c in cmds]
    out.append('}\n\n')
    return ''.join(out)


def main(argv):
    if len(argv) != 5:
        sys.exit('usage: gen_dispatch.py GEN_REGISTRY_PY VK_XML OUT_HPP OUT_CPP')
    global reg_api_ok
    gen = load_registry_module(argv[1])
    reg_api_ok = gen.api_ok
    reg = gen.Registry(argv[2])
    reg.select()
    instance, device = split(reg)

    hpp = [HEADER_NOTE, '#pragma once\n\n#include <vulkan/vulkan_core.h>\n\n',
           'namespace libtrace::layer {\n\n',
           table('InstanceTable', 'Dispatched on a VkInstance or VkPhysicalDevice', instance),
           table('DeviceTable', 'Dispatched on a VkDevice, VkQueue or VkCommandBuffer', device),
           '// Fill every member through the next layer\'s vkGet*ProcAddr; a command\n'
           '// the chain does not offer stays null.\n',
           'void load_instance_table(InstanceTable& t, VkInstance instance, PFN_vkGetInstanceProcAddr gpa);\n',
           'void load_device_table(DeviceTable& t, VkDevice device, PFN_vkGetDeviceProcAddr gpa);\n\n',
           '}  // namespace libtrace::layer\n']
    cpp = [HEADER_NOTE, '#include "layer/dispatch_tables.hpp"\n\n', 'namespace libtrace::layer {\n\n',
           loader('load_instance_table', 'InstanceTable', 'VkInstance', 'PFN_vkGetInstanceProcAddr', instance),
           loader('load_device_table', 'DeviceTable', 'VkDevice', 'PFN_vkGetDeviceProcAddr', device),
           '}  // namespace libtrace::layer\n']
    with open(argv[3], 'w', encoding='utf-8') as f:
        f.write(''.join(hpp))
    with open(argv[4], 'w', encoding='utf-8') as f:
        f.write(''.join(cpp))


if __name__ == '__main__':
    main(sys.argv)
