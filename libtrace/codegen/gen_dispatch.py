#!/usr/bin/env python3
"""Emit a Vulkan layer's dispatch tables from the Vulkan registry.

usage: gen_dispatch.py VK_XML OUT_HPP OUT_CPP

A layer calls down the chain through the function pointers the next layer
hands out. This writes two tables of them, one member per command that a
plain `#include <vulkan/vulkan_core.h>` declares (vkxml.py's command set,
the registry tables' too):

  InstanceTable  commands dispatched on a VkInstance or VkPhysicalDevice
  DeviceTable    commands dispatched on a VkDevice, VkQueue or VkCommandBuffer

Aliases (vkCmdDrawIndirectCountKHR beside vkCmdDrawIndirectCount) are members
of their own: a driver may hand out only the name its enabled extension
brings. Members are the command names without "vk". Global commands
(vkCreateInstance, vkEnumerateInstance*) have no dispatchable handle and no
place in either table.
"""

import sys

import vkxml

HEADER_NOTE = '// Generated from vk.xml by libtrace/codegen/gen_dispatch.py: do not edit.\n'


def first_param_type(reg, name):
    params = vkxml.params(vkxml.command(reg, name))
    return params[0].find('type').text if params else None


def split(reg):
    instance, device = [], []
    for name in sorted(reg.kept_cmds):
        first = first_param_type(reg, name)
        if first in vkxml.INSTANCE_HANDLES:
            instance.append(name)
        elif first in vkxml.DEVICE_HANDLES:
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
    if len(argv) != 4:
        sys.exit('usage: gen_dispatch.py VK_XML OUT_HPP OUT_CPP')
    instance, device = split(vkxml.load(argv[1]))

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
    vkxml.write(argv[2], ''.join(hpp))
    vkxml.write(argv[3], ''.join(cpp))


if __name__ == '__main__':
    main(sys.argv)
