#!/usr/bin/env python3
"""Emit VK_LAYER_TRAK_gpa's draw and dispatch hooks from the Vulkan registry.

usage: gen_draws.py GEN_REGISTRY_PY VK_XML OUT_CPP

`trak-gpa profile --per draw` samples every command that makes the GPU draw
or dispatch. A list kept by hand misses what an application uses (zink draws
with vkCmdDrawMultiEXT, a renderer with vkCmdDrawIndirectCount): this one is
every command a plain `#include <vulkan/vulkan_core.h>` declares (the command
set of gen_registry.py, whose parser is imported from GEN_REGISTRY_PY) that
vk.xml marks as an action command (tasks="action") and whose name says it
draws, dispatches or traces rays: vkCmdDraw*, vkCmdDispatch*,
vkCmdTraceRays*, vkCmdSubpassShading*, vkCmdExecuteGeneratedCommands*.
Aliases (vkCmdDrawIndirectCountKHR beside vkCmdDrawIndirectCount) get a hook
of their own: a driver may hand out only the name its extension brings.

Each hook brackets the next layer's command with a DrawScope
(gpa/profile_hooks.hpp), which begins a sample before it and ends it after.
"""

import importlib.util
import re
import sys

NOTE = '// Generated from vk.xml by libtrace/src/gpa/gen_draws.py: do not edit.\n'
DRAWS = re.compile(r'vkCmd(Draw|Dispatch|TraceRays|SubpassShading|ExecuteGeneratedCommands)')


def load(path):
    spec = importlib.util.spec_from_file_location('gen_registry', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(argv):
    if len(argv) != 4:
        sys.exit('usage: gen_draws.py GEN_REGISTRY_PY VK_XML OUT_CPP')
    gen = load(argv[1])
    reg = gen.Registry(argv[2])
    reg.select()
    out = [NOTE, '#include "gpa/profile_hooks.hpp"\n\n', 'namespace libtrace::gpa {\n\n', 'namespace {\n\n']
    table = []
    for name in sorted(reg.kept_cmds):
        if not DRAWS.match(name):
            continue
        cmd = reg.commands[name]
        while cmd.get('alias'):
            cmd = reg.commands[cmd.get('alias')]
        if 'action' not in (cmd.get('tasks') or '').split(','):
            continue
        if cmd.find('proto/type').text != 'void':
            sys.exit(f'gen_draws.py: {name} returns a value: a draw hook cannot bracket it')
        params = [p for p in cmd.findall('param') if gen.api_ok(p)]
        if params[0].find('type').text != 'VkCommandBuffer':
            sys.exit(f'gen_draws.py: {name} is not recorded in a command buffer')
        decl = ', '.join(''.join(p.itertext()).strip() for p in params)
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
    with open(argv[3], 'w', encoding='utf-8') as f:
        f.write(''.join(out))


if __name__ == '__main__':
    main(sys.argv)
