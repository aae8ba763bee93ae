#!/usr/bin/env python3
"""Checks libtrace's module rules (libtrace/README.md) against the includes.

The table in libtrace/README.md between the 'modules:begin' and 'modules:end'
markers is the single statement of which module may use which; this script
reads it, then every #include of the library, the tools and the tests, and
each module's meson.build. It prints one line per broken rule and exits 1.
usage: check.py SOURCE_ROOT
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'
readme = open(os.path.join(root, 'libtrace', 'README.md'), encoding='utf-8').read()
table = readme.split('<!-- modules:begin -->')[1].split('<!-- modules:end -->')[0]
direct = {}
volk_ok = set()
for line in table.splitlines():
    cells = [c.strip() for c in line.strip().strip('|').split('|')]
    if len(cells) < 3 or not cells[0].startswith('`'):
        continue
    mod = cells[0].strip('`')
    direct[mod] = [d.strip().strip('`') for d in cells[1].split(',') if d.strip().strip('`') not in ('', '—')]
    if cells[2].lower().startswith('yes'):
        volk_ok.add(mod)

def closure(mod, seen=None):
    seen = set() if seen is None else seen
    for d in direct.get(mod, []):
        if d not in seen:
            seen.add(d)
            closure(d, seen)
    return seen

allowed = {m: closure(m) | {m} for m in direct}
problems = []
include_re = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def module_of(header):
    """The module a header path (relative to src/ or include/libtrace/) belongs to."""
    parts = header.split('/')
    for n in (2, 1):
        if len(parts) > n and '/'.join(parts[:n]) in direct:
            return '/'.join(parts[:n])
    return None


def files_under(*parts):
    top = os.path.join(root, *parts)
    for d, _, names in os.walk(top):
        for n in sorted(names):
            if n.endswith(('.cpp', '.hpp', '.c', '.h')):
                yield os.path.join(d, n)


def rel(p):
    return os.path.relpath(p, root)


# 1. Every module folder is in the table, and nothing lies loose in src/ or include/libtrace/.
for top in (('libtrace', 'src'), ('libtrace', 'include', 'libtrace')):
    base = os.path.join(root, *top)
    for n in sorted(os.listdir(base)):
        p = os.path.join(base, n)
        if os.path.isfile(p):
            problems.append(f'{rel(p)}: a file outside every module folder')
for mod in direct:
    if not os.path.isfile(os.path.join(root, 'libtrace', 'src', mod, 'meson.build')):
        problems.append(f'libtrace/src/{mod}: module in libtrace/README.md without a meson.build')

# 2. Library files include only their own module and the modules it depends on;
#    public headers include only public headers; volk only where allowed.
for kind, top in (('src', ('libtrace', 'src')), ('public', ('libtrace', 'include', 'libtrace'))):
    base = os.path.join(root, *top)
    for path in files_under(*top):
        mod = module_of(os.path.relpath(path, base))
        if mod is None:
            problems.append(f'{rel(path)}: not in a module listed in libtrace/README.md')
            continue
        text = open(path, encoding='utf-8', errors='replace').read()
        for m in include_re.finditer(text):
            line = text.count('\n', 0, m.start()) + 1
            bracket, name = m.groups()
            where = f'{rel(path)}:{line}'
            if name in ('volk.h', 'volk.c') and mod not in volk_ok:
                problems.append(f'{where}: module {mod} may not use volk ({name})')
            if bracket == '<':
                continue
            if name.startswith('libtrace/'):
                target = module_of(name[len('libtrace/'):])
            else:
                if kind == 'public':
                    problems.append(f'{where}: a public header includes an internal one ("{name}")')
                    continue
                target = module_of(name)
            if target is None:
                problems.append(f'{where}: "{name}" names no module folder')
            elif target not in allowed[mod]:
                problems.append(f'{where}: module {mod} may not include {target} ("{name}")')

# 2a. A module without volk depends on none with it, directly or through
#     another: a layer's module (gpa, capture) must not pull a Vulkan loader
#     into the application it is loaded in.
for mod in sorted(direct):
    if mod not in volk_ok:
        for d in sorted((allowed[mod] - {mod}) & volk_ok):
            problems.append(f'libtrace/README.md: module {mod} uses no volk but depends on {d}, which does')

# 2b. The library never names a tool: a tool prints "<tool>: " before every
#     message, so a name inside would print twice ("trak-replay: trak-replay: ...").
tool_name_re = re.compile(r'"trak-[a-z]+')
for top in (('libtrace', 'src'), ('libtrace', 'include', 'libtrace')):
    for path in files_under(*top):
        for n, line in enumerate(open(path, encoding='utf-8', errors='replace'), 1):
            code = line.split('//', 1)[0]
            if tool_name_re.search(code):
                problems.append(f'{rel(path)}:{n}: a tool name in a library string')

# 3. Tools include public headers, the shared tool glue and their own folder only.
tools = os.path.join(root, 'tools')
for path in files_under('tools'):
    own = os.path.relpath(os.path.dirname(path), tools)
    text = open(path, encoding='utf-8', errors='replace').read()
    for m in include_re.finditer(text):
        bracket, name = m.groups()
        where = f'{rel(path)}:{text.count(chr(10), 0, m.start()) + 1}'
        if name in ('volk.h', 'volk.c'):
            problems.append(f'{where}: tools reach Vulkan through libtrace, not volk')
        if bracket == '<' or name.startswith('libtrace/'):
            continue
        if name in ('tool_main.hpp', 'launcher.hpp') or ('/' not in name and os.path.isfile(os.path.join(os.path.dirname(path), name))):
            continue
        problems.append(f'{where}: a tool includes "{name}" (neither libtrace/…, tool_main.hpp, launcher.hpp nor its own folder {own}/)')

# 3b. Layers are built from a module's public header, like tools, and export
#     the loader's one entry point and nothing else.
for path in files_under('layers'):
    text = open(path, encoding='utf-8', errors='replace').read()
    for m in include_re.finditer(text):
        bracket, name = m.groups()
        if bracket == '"' and not name.startswith('libtrace/'):
            problems.append(f'{rel(path)}:{text.count(chr(10), 0, m.start()) + 1}: a layer includes "{name}" '
                            '(only libtrace/… public headers)')
    for m in re.finditer(r'visibility\("default"\)\)\)[^(]*?(\w+)\s*\(', text):
        if m.group(1) != 'vkNegotiateLoaderLayerInterfaceVersion':
            problems.append(f'{rel(path)}: a layer exports {m.group(1)} (only vkNegotiateLoaderLayerInterfaceVersion)')

# 3c. A layer is built from modules without volk (layers/meson.build's table):
#     the application it is loaded in has its own Vulkan loader.
layer_build = open(os.path.join(root, 'layers', 'meson.build'), encoding='utf-8').read()
layer_table = layer_build.split('layer_table = {', 1)[-1].split('\n}', 1)[0]
for name, deps in re.findall(r"'([a-z_]+)'\s*:\s*\[([^\]]*)\]", layer_table):
    for d in re.findall(r'\b([a-z_]+)_dep\b', deps):
        mod = {m.replace('/', '_'): m for m in direct}.get(d)
        if mod in volk_ok:
            problems.append(f'layers/meson.build: layer {name} links {mod}, which uses volk')

# 4. Tests reach internals through libtrace_internal_dep, never by relative paths.
for path in files_under('tests'):
    text = open(path, encoding='utf-8', errors='replace').read()
    for m in include_re.finditer(text):
        if '../' in m.group(2):
            problems.append(f'{rel(path)}:{text.count(chr(10), 0, m.start()) + 1}: relative include "{m.group(2)}"')

# 5. Each module's meson.build links exactly the modules the table names.
dep_re = re.compile(r'\b([a-z_]+)_dep\b')
for mod, deps in direct.items():
    build = os.path.join(root, 'libtrace', 'src', mod, 'meson.build')
    if not os.path.isfile(build):
        continue
    text = open(build, encoding='utf-8').read()
    lib = re.sub(r'#.*', '', text)  # module_deps and module_private_deps (libtrace/meson.build builds it)
    by_dep_name = {m.replace('/', '_'): m for m in direct}  # replay_foz_dep, gpa_client_dep
    found = {by_dep_name[d] for d in dep_re.findall(lib) if d in by_dep_name}
    want = set(deps)
    if found != want:
        problems.append(f'{rel(build)}: links modules {sorted(found)}, libtrace/README.md says {sorted(want)}')

for p in problems:
    print(p)
print(f'layering: {len(direct)} modules, {len(problems)} problem(s)')
sys.exit(1 if problems else 0)
