#!/usr/bin/env python3
"""Emit VK_LAYER_TRAK_gpa's draw and dispatch hooks from the Vulkan registry.

usage: gen_draws.py VK_XML OUT_CPP

`trak-gpa profile --per draw` samples every command that makes the GPU draw
or dispatch. A list kept by hand misses what an application uses (zink draws
with vkCmdDrawMultiEXT, a renderer with vkCmdDrawIndirectCount): this one is
every command a plain `#include <vulkan/vulkan_core.h>` declares (vkxml.py's
command set, the registry tables' too) that vk.xml marks as an action command (tasks="action") and whose name says it
draws, dispatches or traces rays: vkCmdDraw*, vkCmdDispatch*,
vkCmdTraceRays*, vkCmdSubpassShading*, vkCmdExecuteGeneratedCommands*.
Aliases (vkCmdDrawIndirectCountKHR beside vkCmdDrawIndirectCount) get a hook
of their own: a driver may hand out only the name its extension brings.

Each hook brackets the next layer's command with a DrawScope
(gpa/profile_hooks.hpp), which begins a sample before it and ends it after.
"""

import re
import sys

import vkxml

NOTE = '// Generated from vk.xml by libtrace/codegen/gen_draws.py: do not edit.\n'
DRAWS = re.compile(r'vkCmd(Draw|Dispatch|TraceRays|SubpassShading|ExecuteGeneratedCommands)')


def main(argv):
    if len(argv) != 3:
        sys.exit('usage: gen_draws.py VK_XML OUT_CPP')
    reg = vkxml.load(argv[1])
    out = [NOTE, '#include "gpa/profile_hooks.hpp"\n\n', 'namespace libtrace::gpa {\n\n', 'namespace {\n\n']
    table = []
    for name in sorted(reg.kept_cmds):
        if not DRAWS.match(name):
            continue
        cmd = vkxml.command(reg, name)
        if 'action' not in (cmd.get('tasks') or '').split(','):
            continue
        if cmd.find('proto/type').text != 'void':
            sys.exit(f'gen_draws.py: {name} returns a value: a draw hook cannot bracket it')
        params = vkxml.params(cmd)
        if params[0].find('type').text != 'VkCommandBuffer':
            sys.exit(f'gen_draws.py: {name} is not recorded in a command buffer')
        decl = ', '.join(vkxml.declaration(p) for p in params)
        args = ', '.join(p.find('name').text for p in params)
        cb = params[0].find('name').text
        fn = f'Hook_{name}'
        out += [f'VKAPI_ATTR void VKAPI_CALL {fn}({decl}) {{\n',
                f'  const DrawScope scope({cb});\n',
                f'  scope.next().{name[2:]}({args});\n',
                '}\n\n']
        table.append((name, fn))
    if not table:
        sys.exit('gen_draws.py: no draw or dispatch command in the registry')
    out.append('}  // namespace\n\n')
    out.append('const layer::Hook kDrawHooks[] = {\n')
    out += [f'    {{"{n}", layer::hook_fn({f})}},\n' for n, f in table]
    out.append('};\n\n')
    out.append('std::span<const layer::Hook> draw_hooks() { return kDrawHooks; }\n\n')
    out.append('}  // namespace libtrace::gpa\n')
    vkxml.write(argv[2], ''.join(out))


if __name__ == '__main__':
    main(sys.argv)
