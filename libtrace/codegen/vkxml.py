"""The Vulkan registry (vk.xml) as every trak generator reads it.

Each gen_*.py beside this file imports it (python puts a script's own folder
first on sys.path), so the registry tables, the layer's dispatch tables, the
capture's entry points, the replay's invokers and the gpa layer's draw hooks
read vk.xml through one parser and see one command set: what a plain
`#include <vulkan/vulkan_core.h>` declares. That is Vulkan 1.x ("vulkan" api)
and every extension whose declarations the header shows; platform extensions
(a `platform` with a protect macro) and provisional ones
(VK_ENABLE_BETA_EXTENSIONS) are left out together with what only they require,
as are extensions with supported="disabled" and items for another api
(vulkansc).

Standard library only: meson runs the generators at build time on any
Debian 12 box.
"""

import re
import xml.etree.ElementTree as ET

API = 'vulkan'

# A command's first parameter says what it is dispatched on.
INSTANCE_HANDLES = {'VkInstance', 'VkPhysicalDevice'}
DEVICE_HANDLES = {'VkDevice', 'VkQueue', 'VkCommandBuffer'}


def api_ok(elem):
    api = elem.get('api')
    return api is None or API in api.split(',')


def parse_int(s):
    s = s.strip()
    neg = s.startswith('-')
    s = s.lstrip('-').rstrip('uUlL')
    v = int(s, 16) if s.lower().startswith('0x') else int(s)
    return -v if neg else v


class Decl:
    """One <member> or <param>: the C declarator split into its parts."""

    def __init__(self, elem):
        self.elem = elem
        self.type = elem.find('type').text
        self.name = elem.find('name').text
        pre = elem.text or ''
        between = elem.find('type').tail or ''
        post = ''
        seen_name = False
        for child in elem:
            if child.tag == 'name':
                seen_name = True
                post += child.tail or ''
            elif seen_name and child.tag != 'comment':
                post += (child.text or '') + (child.tail or '')
            elif seen_name:
                post += child.tail or ''
        self.is_const = 'const' in pre
        self.depth = between.count('*')
        self.dims = [d.strip() for d in re.findall(r'\[([^\]]+)\]', post)]
        m = re.match(r'\s*:\s*(\d+)', post)
        self.bits = int(m.group(1)) if m else 0
        self.len = elem.get('altlen') or elem.get('len')
        opt = elem.get('optional')
        self.optional = bool(opt) and opt.split(',')[0] == 'true'
        # Arrays whose validity the spec states in prose (pImageInfo of a
        # buffer write, pQueueFamilyIndices of exclusive sharing) may be NULL
        # beside a count: readers must not call those missing.
        if elem.get('noautovalidity') == 'true' and self.len:
            self.optional = True
        self.values = elem.get('values')


class Registry:
    def __init__(self, path):
        root = ET.parse(path).getroot()
        self.protect = {p.get('name'): p.get('protect')
                        for p in root.iter('platform')}
        self.types = {}
        for t in root.find('types').findall('type'):
            if not api_ok(t):
                continue
            name = t.get('name') or (t.find('name').text if t.find('name') is not None else None)
            if name:
                self.types[name] = t
        self.enum_blocks = {e.get('name'): e for e in root.findall('enums')}
        self.constants = {}
        for e in self.enum_blocks['API Constants'].findall('enum'):
            if e.get('value') and re.fullmatch(r'\d+', e.get('value')):
                self.constants[e.get('name')] = int(e.get('value'))
        self.commands = {}
        for c in root.find('commands').findall('command'):
            if not api_ok(c):
                continue
            name = c.get('name') or c.find('proto/name').text
            self.commands[name] = c
        self.features = root.findall('feature')
        self.formats = root.find('formats')
        self.extensions = root.find('extensions').findall('extension')

    # -- what the header declares ---------------------------------------

    def select(self):
        """Fill kept/skipped type and command names and extension enumerants."""
        self.kept_types, self.kept_cmds = set(), set()
        skipped_types, skipped_cmds = set(), set()
        self.ext_values = {}   # extended enum -> [(name, value|None, alias|None)]
        self.skipped_ext = {'platform': [], 'provisional': [], 'disabled': [], 'other api': []}
        self.hidden_values = set()
        self.seen_values = set()

        def take(block, types, cmds, extnumber, values_visible):
            for r in block.findall('require'):
                if not api_ok(r):
                    continue
                for t in r.findall('type'):
                    types.add(t.get('name'))
                for c in r.findall('command'):
                    cmds.add(c.get('name'))
                for e in r.findall('enum'):
                    if e.get('extends') and api_ok(e):
                        if values_visible and not e.get('protect'):
                            self.add_ext_value(e, extnumber)
                        else:
                            self.hidden_values.add(e.get('name'))

        for f in self.features:
            if api_ok(f):
                take(f, self.kept_types, self.kept_cmds, None, True)
        for x in self.extensions:
            supported = x.get('supported', '').split(',')
            number = int(x.get('number'))
            if 'disabled' in supported:
                self.skipped_ext['disabled'].append(x.get('name'))
                continue
            if API not in supported:
                self.skipped_ext['other api'].append(x.get('name'))
                continue
            platform = x.get('platform')
            if x.get('provisional') == 'true' or platform == 'provisional':
                self.skipped_ext['provisional'].append(x.get('name'))
                take(x, skipped_types, skipped_cmds, number, False)
            elif platform and self.protect.get(platform):
                # vulkan_core.h still lists these extensions' enumerants in
                # the core enums (VK_STRUCTURE_TYPE_WIN32_*): keep those.
                self.skipped_ext['platform'].append(x.get('name'))
                take(x, skipped_types, skipped_cmds, number, True)
            else:
                take(x, self.kept_types, self.kept_cmds, number, True)

        self.close_types()
        self.skipped_values = self.hidden_values - self.seen_values
        self.skipped_types = skipped_types - self.kept_types
        self.skipped_cmds = skipped_cmds - self.kept_cmds

    def add_ext_value(self, e, extnumber):
        name = e.get('name')
        if name in self.seen_values:
            return   # promoted or shared enumerants are required in several places
        self.seen_values.add(name)
        if e.get('alias'):
            value = None
        elif e.get('bitpos') is not None:
            value = 1 << int(e.get('bitpos'))
        elif e.get('offset') is not None:
            n = int(e.get('extnumber') or extnumber)
            value = 1000000000 + (n - 1) * 1000 + int(e.get('offset'))
            if e.get('dir') == '-':
                value = -value
        else:
            value = parse_int(e.get('value'))
        self.ext_values.setdefault(e.get('extends'), []).append((name, value, e.get('alias')))

    def deps(self, name):
        """Types a type's declaration names: the header emits them with it."""
        t = self.types.get(name)
        if t is None:
            return []
        out = []
        if t.get('alias'):
            out.append(t.get('alias'))
        for attr in ('requires', 'bitvalues'):
            if t.get(attr) and t.get('category') in ('bitmask', 'funcpointer'):
                out.append(t.get(attr))
        if t.get('category') in ('struct', 'union'):
            out += [m.find('type').text for m in t.findall('member') if api_ok(m)]
        elif t.get('category') == 'funcpointer':
            out += [x.text for x in t.findall('type')]
        return out

    def close_types(self):
        todo = list(self.kept_types)
        for c in list(self.kept_cmds):
            cmd = self.commands[c]
            while cmd.get('alias'):
                self.kept_cmds.add(cmd.get('alias'))
                cmd = self.commands[cmd.get('alias')]
            todo.append(cmd.find('proto/type').text)
            todo += [p.find('type').text for p in cmd.findall('param') if api_ok(p)]
        done = set()
        while todo:
            n = todo.pop()
            if n in done:
                continue
            done.add(n)
            self.kept_types.add(n)
            todo += self.deps(n)

    def category(self, name):
        t = self.types.get(name)
        return t.get('category') if t is not None else None

    def canonical(self, name):
        t = self.types.get(name)
        while t is not None and t.get('alias'):
            name = t.get('alias')
            t = self.types.get(name)
        return name

    def basetype_target(self, name):
        t = self.types.get(name)
        inner = t.find('type') if t is not None else None
        return inner.text if inner is not None else None


def load(path):
    """The registry of vk.xml at `path`, its header's types and commands selected."""
    reg = Registry(path)
    reg.select()
    return reg


def alias_target(reg, name):
    """The command that declares `name`'s parameters: `name` itself unless it is an alias."""
    while reg.commands[name].get('alias'):
        name = reg.commands[name].get('alias')
    return name


def command(reg, name):
    """The <command> of alias_target(reg, name)."""
    return reg.commands[alias_target(reg, name)]


def params(cmd):
    """A command's <param>s for the "vulkan" api."""
    return [p for p in cmd.findall('param') if api_ok(p)]


def declaration(param):
    """A <param> as C declares it: `const VkAllocationCallbacks* pAllocator`."""
    return ''.join(param.itertext()).strip()


def write(path, text):
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def write_table(path, out, array, rows, count, namespace):
    """Writes `out` with its end: the closed anonymous namespace, the table
    `array` of {"name", value} `rows`, its size `count`, then `namespace`
    closed: the lookup table every generated file of commands ends with."""
    out.append('}  // namespace\n\n')
    out.append(f'{array}[] = {{\n')
    out += [f'    {{"{n}", {v}}},\n' for n, v in rows]
    out.append('};\n')
    out.append(f'const std::size_t {count} = {len(rows)};\n\n')
    out.append(f'}}  // namespace {namespace}\n')
    write(path, ''.join(out))
