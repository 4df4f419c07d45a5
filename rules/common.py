# gfpaudit common SmPL helpers.  rules/sync-common.py copies into every
# rules/*.cocci (coccicheck runs one self-contained file at a time) the part
# of this file the rule uses; tests/rules_tables.py (from tests/t30-cocci.sh)
# fails when a copy differs from what that script gives.
import json
import linecache
import os
import re
# Header constants the rules cannot see with --no-includes.  gfpaudit audit
# --cocci hands spatch those the C analyzer evaluates in the tree (its probes,
# analyzer/frontend/tu.c) as GFPAUDIT_COCCI_CONSTANTS, NAME=VALUE words; a run
# without that variable (coccicheck) judges with these, the values of x86-64
# 6.12 and the C analyzer defaults.  None: derived from PAGE_SHIFT and
# MAX_PAGE_ORDER below.
CONSTANTS = {'PAGE_SHIFT': 12, 'PAGE_ALLOC_COSTLY_ORDER': 3, 'MAX_PAGE_ORDER': 10,
             'KMALLOC_MAX_CACHE_SIZE': None, 'HPAGE_PMD_ORDER': 9, 'MAX_ORDER': None}
for _w in os.environ.get('GFPAUDIT_COCCI_CONSTANTS', '').split():
    _n, _eq, _v = _w.partition('=')
    if _n in CONSTANTS and re.match(r'^-?[0-9]+$', _v):
        CONSTANTS[_n] = int(_v)
PAGE_SHIFT = CONSTANTS['PAGE_SHIFT']
COSTLY_ORDER = CONSTANTS['PAGE_ALLOC_COSTLY_ORDER']
MAX_ORDER_SEEN = CONSTANTS['MAX_PAGE_ORDER']
_defs = {}    # file -> {macro: replacement text}: macros defined in the file
_asg = {}     # (file, function, variable) -> [(line, op, rhs text, condition text)]
_cond = {}    # (file, line, variable) -> condition of the if that guards "v |= M"
_fb = {}      # (file, line, col) -> fallback kind: "retry", "vmalloc", "loop"
_flag = {}    # (file, line, col) -> (rule id, message, extra facts)
_lv = {}      # (file, line, col) -> text of the lvalue the call result is stored to
_nullchk = {} # (file, function) -> [(line, lvalue text, allocation call text in the branch)]
_tests = {}   # (file, function) -> [(line, tested expression text)]
_again = {}   # (file, function) -> [(line, lvalue text or None for a return, call text)]
# The constants by name, for the expressions the rules evaluate: KMALLOC_MAX_CACHE_SIZE
# is two pages (SLUB), MAX_ORDER the inclusive MAX_PAGE_ORDER unless the tree
# defines it (11 before 6.4), the page-fragment orders get_order(32768).
_known = {'PAGE_SIZE': 1 << PAGE_SHIFT, 'PAGE_SHIFT': PAGE_SHIFT,
          'PAGE_ALLOC_COSTLY_ORDER': COSTLY_ORDER,
          'KMALLOC_MAX_CACHE_SIZE': CONSTANTS['KMALLOC_MAX_CACHE_SIZE'] or 2 << PAGE_SHIFT,
          'HPAGE_PMD_ORDER': CONSTANTS['HPAGE_PMD_ORDER'], 'PMD_ORDER': CONSTANTS['HPAGE_PMD_ORDER'],
          'MAX_PAGE_ORDER': MAX_ORDER_SEEN,
          'MAX_ORDER': MAX_ORDER_SEEN if CONSTANTS['MAX_ORDER'] is None else CONSTANTS['MAX_ORDER'],
          'PAGE_FRAG_CACHE_MAX_ORDER': ((32768 - 1) >> PAGE_SHIFT).bit_length(),
          'SKB_FRAG_PAGE_ORDER': ((32768 - 1) >> PAGE_SHIFT).bit_length()}
_types = {'unsigned', 'signed', 'long', 'int', 'short', 'char', 'size_t',
          'u8', 'u16', 'u32', 'u64', 'gfp_t', 'const'}
_tokre = re.compile(r'\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|([A-Za-z_]\w*)|(<<|>>|&&|\|\||[-+*/%()|&~,?:!<>=.]))')
# Named masks: 1 when they set __GFP_DIRECT_RECLAIM.  Other __GFP_* flags do
# not; unknown names (variables, parameters, helpers) may set any bit.
_reclaim = {'GFP_KERNEL': 1, 'GFP_KERNEL_ACCOUNT': 1, 'GFP_NOFS': 1, 'GFP_NOIO': 1,
            'GFP_USER': 1, 'GFP_HIGHUSER': 1, 'GFP_HIGHUSER_MOVABLE': 1,
            'GFP_TRANSHUGE': 1, '__GFP_RECLAIM': 1, '__GFP_DIRECT_RECLAIM': 1,
            'GFP_ATOMIC': 0, 'GFP_NOWAIT': 0, 'GFP_DMA': 0, 'GFP_DMA32': 0,
            'GFP_TRANSHUGE_LIGHT': 0}
_noreclaim = ('__GFP_DIRECT_RECLAIM', '__GFP_RECLAIM')
# Helpers whose result always carries these bits (summaries SmPL cannot derive).
_helper_bits = {'readahead_gfp_mask': {'__GFP_NORETRY', '__GFP_NOWARN'}}

# Allocation APIs.  Which ones, their kind and their argument roles are
# analyzer/data/allocators.tbl, copied between the allocators.tbl lines below
# by rules/sync-common.py; _RULES_ONLY adds macros over them that the C
# analyzer sees expanded and the rules (--no-includes) see as written.
# _PARAMS is how each is written, for the roles' argument positions: its
# parameters, the mask marked gfp_t (6.10+ wraps each in alloc_hooks() over
# a *_noprof function; spatch sees the written name).
# tests/rules_tables.py checks the copy, and that every role names one of
# the parameters.
# >>> allocators.tbl
_ALLOCATORS_TBL = """
alloc_pages            pages  order=order
alloc_pages_node       pages  order=order
__alloc_pages          pages  order=order
__alloc_pages_node     pages  order=order
alloc_pages_mpol       pages  order=order
get_free_pages         pages  order=order
__get_free_pages       pages  order=order
folio_alloc            pages  order=order adds=COMP
__folio_alloc          pages  order=order adds=COMP
__folio_alloc_node     pages  order=order adds=COMP
folio_alloc_mpol       pages  order=order
filemap_alloc_folio    pages  order=order
vma_alloc_folio        pages  order=order
folio_alloc_gigantic   pages  order=order
alloc_pages_exact      exact  size=size
alloc_pages_exact_nid  exact  size=size
__get_free_page        pages  order=0
get_zeroed_page        pages  order=0 adds=ZERO
kmalloc                slab   size=size
kzalloc                slab   size=size adds=ZERO
__kmalloc              slab   size=size
kmalloc_node           slab   size=size
__kmalloc_node         slab   size=size
kzalloc_node           slab   size=size adds=ZERO
kmalloc_large          slab   size=size adds=COMP
kmalloc_large_node     slab   size=size
__kmalloc_large        slab   size=size
__kmalloc_large_node   slab   size=size
kmalloc_array          slab   size=size count=n
kmalloc_array_node     slab   size=size count=n
kcalloc                slab   size=size count=n
kcalloc_node           slab   size=size count=n
krealloc               slab   size=new_size
krealloc_array         slab   size=new_size count=new_n
kmemdup                slab   size=len
memdup_user            slab   size=#1 gfp=GFP_USER|__GFP_NOWARN
devm_kmalloc           slab   size=size
devm_kzalloc           slab   size=size adds=ZERO
devm_kcalloc           slab   size=size count=n
__alloc_skb            slab   size=#0 gfp=#1 align=64 extra=320 mem=physical
alloc_skb              slab   size=#0 gfp=#1 align=64 extra=320 mem=physical
alloc_skb_fclone       slab   size=#0 gfp=#1 align=64 extra=320 mem=physical
nlmsg_new              slab   size=#0 gfp=#1 pad=16 align=64 extra=320 mem=physical
genlmsg_new            slab   size=#0 gfp=#1 pad=20 align=64 extra=320 mem=physical
__netdev_alloc_skb     slab   size=#1 gfp=#2 pad=64 align=64 extra=320 mem=physical
netdev_alloc_skb       slab   size=#1 gfp=GFP_ATOMIC pad=64 align=64 extra=320 mem=physical
netdev_alloc_skb_ip_align slab size=#1 gfp=GFP_ATOMIC pad=64 align=64 extra=320 mem=physical
__dev_alloc_skb        slab   size=#0 gfp=#1 pad=64 align=64 extra=320 mem=physical
dev_alloc_skb          slab   size=#0 gfp=GFP_ATOMIC pad=64 align=64 extra=320 mem=physical
__napi_alloc_skb       slab   size=#1 gfp=#2 pad=64 align=64 extra=320 mem=physical
napi_alloc_skb         slab   size=#1 gfp=GFP_ATOMIC pad=64 align=64 extra=320 mem=physical
kvmalloc               kv     size=size
kvzalloc               kv     size=size adds=ZERO
kvmalloc_node          kv     size=size
__kvmalloc_node        kv     size=size
kvzalloc_node          kv     size=size adds=ZERO
kvmalloc_array         kv     size=size count=n
kvmalloc_array_node    kv     size=size count=n
kvcalloc               kv     size=size count=n
kvcalloc_node          kv     size=size count=n
kvrealloc              kv     size=size
vmemdup_user           kv     size=#1 gfp=GFP_KERNEL
kvmemdup               kv     size=len
vmalloc                vmalloc size=size
vzalloc                vmalloc size=size
__vmalloc              vmalloc size=size
vmalloc_node           vmalloc size=size
vzalloc_node           vmalloc size=size
__vmalloc_node         vmalloc size=size
__vmalloc_node_range   vmalloc size=size
vmalloc_array          vmalloc size=size count=n
vcalloc                vmalloc size=size count=n
vmalloc_huge           vmalloc size=size
"""
# <<< allocators.tbl
_RULES_ONLY = """
alloc_page             pages  order=0
__get_dma_pages        pages  order=order
"""
_PARAMS = {
    'alloc_pages': 'gfp_t gfp, order', 'alloc_pages_node': 'nid, gfp_t gfp_mask, order',
    '__alloc_pages': 'gfp_t gfp, order, preferred_nid, nodemask',
    '__alloc_pages_node': 'nid, gfp_t gfp_mask, order',
    'alloc_pages_mpol': 'gfp_t gfp, order, mpol, ilx, nid',
    'get_free_pages': 'gfp_t gfp_mask, order', '__get_free_pages': 'gfp_t gfp_mask, order',
    'folio_alloc': 'gfp_t gfp, order', '__folio_alloc': 'gfp_t gfp, order, preferred_nid, nodemask',
    '__folio_alloc_node': 'gfp_t gfp, order, nid', 'folio_alloc_mpol': 'gfp_t gfp, order, mpol, ilx, nid',
    'filemap_alloc_folio': 'gfp_t gfp, order', 'vma_alloc_folio': 'gfp_t gfp, order, vma, addr, hugepage',
    'folio_alloc_gigantic': 'order, gfp_t gfp, nid, node',
    'alloc_pages_exact': 'size, gfp_t gfp_mask', 'alloc_pages_exact_nid': 'nid, size, gfp_t gfp_mask',
    '__get_free_page': 'gfp_t gfp_mask', 'get_zeroed_page': 'gfp_t gfp_mask',
    'alloc_page': 'gfp_t gfp_mask', '__get_dma_pages': 'gfp_t gfp_mask, order',
    'kmalloc': 'size, gfp_t flags', 'kzalloc': 'size, gfp_t flags', '__kmalloc': 'size, gfp_t flags',
    'kmalloc_node': 'size, gfp_t flags, node', '__kmalloc_node': 'size, gfp_t flags, node',
    'kzalloc_node': 'size, gfp_t flags, node', 'kmalloc_large': 'size, gfp_t flags',
    'kmalloc_large_node': 'size, gfp_t flags, node', '__kmalloc_large': 'size, gfp_t flags',
    '__kmalloc_large_node': 'size, gfp_t flags, node',
    'kmalloc_array': 'n, size, gfp_t flags', 'kmalloc_array_node': 'n, size, gfp_t flags, node',
    'kcalloc': 'n, size, gfp_t flags', 'kcalloc_node': 'n, size, gfp_t flags, node',
    'krealloc': 'objp, new_size, gfp_t flags', 'krealloc_array': 'p, new_n, new_size, gfp_t flags',
    'kmemdup': 'src, len, gfp_t gfp', 'memdup_user': 'src, len',
    'devm_kmalloc': 'dev, size, gfp_t gfp', 'devm_kzalloc': 'dev, size, gfp_t gfp',
    'devm_kcalloc': 'dev, n, size, gfp_t flags',
    'kvmalloc': 'size, gfp_t flags', 'kvzalloc': 'size, gfp_t flags',
    'kvmalloc_node': 'size, gfp_t flags, node', '__kvmalloc_node': 'size, gfp_t flags, node',
    'kvzalloc_node': 'size, gfp_t flags, node', 'kvmalloc_array': 'n, size, gfp_t flags',
    'kvmalloc_array_node': 'n, size, gfp_t flags, node', 'kvcalloc': 'n, size, gfp_t flags',
    'kvcalloc_node': 'n, size, gfp_t flags, node', 'kvrealloc': 'p, size, gfp_t flags',
    'vmemdup_user': 'src, len', 'kvmemdup': 'src, len, gfp_t gfp',
    'vmalloc': 'size', 'vzalloc': 'size', '__vmalloc': 'size, gfp_t gfp_mask',
    'vmalloc_node': 'size, node', 'vzalloc_node': 'size, node',
    '__vmalloc_node': 'size, align, gfp_t gfp_mask, node, caller',
    '__vmalloc_node_range': 'size, align, start, end, gfp_t gfp_mask, prot, vm_flags, node, caller',
    'vmalloc_array': 'n, size', 'vcalloc': 'n, size', 'vmalloc_huge': 'size, gfp_t gfp_mask',
    '__alloc_skb': 'size, gfp_t priority, flags, node', 'alloc_skb': 'size, gfp_t priority',
    'alloc_skb_fclone': 'size, gfp_t priority', 'nlmsg_new': 'payload, gfp_t flags',
    'genlmsg_new': 'payload, gfp_t flags', '__netdev_alloc_skb': 'dev, length, gfp_t gfp_mask',
    'netdev_alloc_skb': 'dev, length', 'netdev_alloc_skb_ip_align': 'dev, length',
    '__dev_alloc_skb': 'length, gfp_t gfp_mask', 'dev_alloc_skb': 'length',
    '__napi_alloc_skb': 'napi, len, gfp_t gfp_mask', 'napi_alloc_skb': 'napi, len',
}

def _api(line):
    """(name, (kind, gfp, order or size, count)) of a table line: argument
    positions, or None; a constant mask (memdup_user) as its text."""
    w = line.split()
    roles = dict(r.split('=', 1) for r in w[2:])
    params = [p.split() for p in _PARAMS.get(w[0], '').split(',') if p.strip()]
    names = [p[-1] for p in params]
    def pos(arg):
        if arg is None:
            return None
        if arg.startswith('#'):
            return int(arg[1:])
        return names.index(arg) if arg in names else None
    gfp = roles.get('gfp')
    gi = pos(gfp) if gfp else next((i for i, p in enumerate(params) if p[0] == 'gfp_t'), None)
    if gfp and gi is None:
        gi = gfp
    return w[0], (w[1], gi, pos(roles.get('order', roles.get('size'))), pos(roles.get('count')))

# name -> (kind, gfp argument, order or size argument, count argument or None)
APIS = dict(_api(l) for l in (_ALLOCATORS_TBL + _RULES_ONLY).splitlines() if l.strip())
PAGE_GFP_ORDER = {n for n, a in APIS.items() if a[0] == 'pages' and a[1:3] == (0, 1)}  # (gfp, order, ...)
PAGE_NID_GFP_ORDER = {n for n, a in APIS.items() if a[0] == 'pages' and a[1:3] == (1, 2)}  # (nid, gfp, order)
ORDER0 = {n for n, a in APIS.items() if a[0] == 'pages' and a[2] is None}  # (gfp): order 0
VMALLOC = {n for n, a in APIS.items() if a[0] == 'vmalloc'}
KVMALLOC = {n for n, a in APIS.items() if a[0] == 'kv'}
# kmalloc family -> its kvmalloc twin (kvmalloc falls back to vmalloc itself)
KV_TWIN = {'kmalloc': 'kvmalloc', 'kzalloc': 'kvzalloc', 'kmalloc_node': 'kvmalloc_node',
           'kzalloc_node': 'kvzalloc_node', 'kcalloc': 'kvcalloc',
           'kmalloc_array': 'kvmalloc_array', 'kcalloc_node': 'kvcalloc_node',
           'kmalloc_array_node': 'kvmalloc_array_node'}

class Call:
    """One allocation call as written: name, argument texts and what they mean."""
    def __init__(self, f, args, p):
        self.name, self.p = str(f).strip(), p
        _, self.args = call_args('%s(%s)' % (self.name, args))
        self.kind, gi, oi, ci = APIS.get(self.name, (None, None, None, None))
        arg = lambda i: self.args[i] if i is not None and i < len(self.args) else None
        self.gfp = gi if isinstance(gi, str) else arg(gi)
        self.amount, self.count = arg(oi), arg(ci)
    def order(self):
        """Page-allocator order when constant, else None."""
        if self.kind == 'pages':
            return 0 if self.amount is None else order_value(self.amount, self.p)
        return page_order(self.bytes())
    def bytes(self):
        if self.kind == 'pages' or self.amount is None:
            return None
        return size_value(self.amount, self.p, self.count)
    def mask(self):
        m = mask(self.gfp if self.gfp is not None else 'unknown_mask', self.p, self.amount)
        n = self.bytes()
        if self.kind == 'kv' and n is not None and n > (1 << PAGE_SHIFT):
            # kvmalloc adjusts the mask of its kmalloc attempt (mm/util.c)
            m.must.add('__GFP_NOWARN')
            m.may.add('__GFP_NOWARN')
            if not m.may_have('__GFP_RETRY_MAYFAIL'):
                m.must.add('__GFP_NORETRY')
                m.may.add('__GFP_NORETRY')
            m.must.discard('__GFP_NOFAIL')
            m.may.discard('__GFP_NOFAIL')
        return m
    def is_site(self):
        """Does the C analyzer model this call as a page-allocator site?  Page
        APIs always; sized APIs when the size is a known constant (kmalloc
        only above KMALLOC_MAX_CACHE_SIZE: below it slab caches serve it)."""
        if self.kind == 'pages':
            return True
        n = self.bytes()
        if self.kind in ('exact', 'kv'):
            return n is not None and n > 0
        if self.kind == 'slab':
            return n is not None and n > _known['KMALLOC_MAX_CACHE_SIZE']
        return False
    def text(self, name=None, gfp=None):
        args = list(self.args)
        if gfp is not None and isinstance(APIS[self.name][1], int):
            args[APIS[self.name][1]] = gfp
        return '%s(%s)' % (name or self.name, ', '.join(args))

def site_filter(f, es, min_order):
    """Cheap test when a call is matched: can it ever be judged?  Every site
    costs the later rules a pass, and most kmalloc calls are sizeof-sized.
    False for sizes the rules cannot evaluate (sizeof) and for constant
    orders or sizes at or below min_order (kmalloc: also below
    KMALLOC_MAX_CACHE_SIZE, served by slab caches)."""
    name, args = call_args('%s(%s)' % (str(f).strip(), es))
    kind, gi, oi, ci = APIS.get(name, (None, None, None, None))
    if kind is None:
        return False
    amount = args[oi] if oi is not None and oi < len(args) else None
    count = args[ci] if ci is not None and ci < len(args) else None
    if amount is None:
        return 0 > min_order
    text = amount + ' ' + (count or '')
    if 'sizeof' in text:
        return False
    v = cval(amount)
    if v is None or (count is not None and cval(count) is None):
        return True
    if kind == 'pages':
        return v > min_order
    n = v * (cval(count) if count is not None else 1)
    if kind == 'slab' and n <= _known['KMALLOC_MAX_CACHE_SIZE']:
        return False
    return n > 0 and _get_order(n) > min_order

def api_at(p):
    """The identifier spelled at position p (the API name as written)."""
    src = linecache.getline(p.file, int(p.line))
    return src[int(p.column):int(p.column_end)].strip() if p.line == p.line_end else ''

def key(p):
    return (p.file, int(p.line), int(p.column))

def _tokens(s):
    out, i, s = [], 0, str(s).strip()
    while i < len(s):
        m = _tokre.match(s, i)
        if not m or m.end() == i:
            return None
        i = m.end()
        if m.group(1) is not None:
            out.append(('n', int(m.group(1), 0)))
        elif m.group(2) is not None:
            out.append(('i', m.group(2)))
        else:
            out.append(('o', m.group(3)))
    return out

class _Unknown(Exception):
    pass

def _get_order(size):
    if size <= 0:
        raise _Unknown()
    return ((size - 1) >> PAGE_SHIFT).bit_length()

def cval(text, file=None, depth=0):
    """Value of a constant expression written with literals, SZ_*, PAGE_SIZE,
    get_order(), BIT() and macros defined in the file; None when unknown."""
    t = _tokens(text)
    if not t or depth > 8:
        return None
    pos = [0]
    def peek():
        return t[pos[0]] if pos[0] < len(t) else (None, None)
    def take(v=None):
        k, x = peek()
        if k is None or (v is not None and x != v):
            raise _Unknown()
        pos[0] += 1
        return x
    def prim():
        k, x = peek()
        if k == 'n':
            return take()
        if x == '(':
            take('(')
            save = pos[0]
            while peek()[0] == 'i' and peek()[1] in _types:
                take()
            if pos[0] > save and peek()[1] == ')':   # a cast
                take(')')
                return unary()
            pos[0] = save
            v = expr()
            take(')')
            return v
        if k == 'i':
            name = take()
            if peek()[1] == '(':
                take('(')
                v = expr()
                take(')')
                if name == 'get_order':
                    return _get_order(v)
                if name in ('BIT', 'BIT_ULL'):
                    return 1 << v
                raise _Unknown()
            m = re.match(r'SZ_(\d+)([KMG]?)$', name)
            if m:
                return int(m.group(1)) << {'': 0, 'K': 10, 'M': 20, 'G': 30}[m.group(2)]
            if name in _known:
                return _known[name]
            d = _defs.get(file, {}).get(name)
            if d is not None:
                v = cval(d, file, depth + 1)
                if v is not None:
                    return v
        raise _Unknown()
    def unary():
        if peek()[1] == '-':
            take()
            return -unary()
        return prim()
    def binary(sub, ops):
        v = sub()
        while peek()[1] in ops:
            op = take()
            w = sub()
            if op == '*': v = v * w
            elif op == '/': v = v // w if w else 0
            elif op == '%': v = v % w if w else 0
            elif op == '+': v = v + w
            elif op == '-': v = v - w
            elif op == '<<': v = v << w if 0 <= w < 64 else 0
            elif op == '>>': v = v >> w if 0 <= w < 64 else 0
            elif op == '&': v = v & w
            elif op == '|': v = v | w
        return v
    def mul(): return binary(unary, ('*', '/', '%'))
    def add(): return binary(mul, ('+', '-'))
    def shift(): return binary(add, ('<<', '>>'))
    def band(): return binary(shift, ('&',))
    def expr(): return binary(band, ('|',))
    try:
        v = expr()
        return v if pos[0] == len(t) else None
    except (_Unknown, ZeroDivisionError, OverflowError, ValueError):
        return None

def order_value(o, p):
    """Constant order of the order argument (through the function's last
    assignment to a plain variable above the call), or None."""
    return cval(var_value(o, p), p.file)

def size_value(size, p, count=None):
    v = cval(var_value(size, p), p.file)
    if v is not None and count is not None:
        c = cval(var_value(count, p), p.file)
        v = None if c is None else v * c
    return v

def page_order(bytes_):
    return None if bytes_ is None or bytes_ <= 0 else _get_order(bytes_)

class MaskState:
    """Bits a mask surely sets (must), may set (may), whether an unknown part
    may set anything (unknown) unless reclaim was cleared afterwards."""
    def __init__(self):
        self.must, self.may, self.unknown, self.cleared = set(), set(), False, False
    def union(self, o):
        self.must |= o.must
        self.may |= o.may
        self.unknown = self.unknown or o.unknown
        self.cleared = self.cleared and not o.unknown and not (o.may & set(n for n in _reclaim if _reclaim[n]))
    def maybe(self, o):
        self.may |= o.may
        self.unknown = self.unknown or o.unknown
    def clear(self, names):
        self.must -= set(names)
        self.may -= set(names)
        if any(n in _noreclaim for n in names):
            self.cleared = True
            self.may -= set(n for n in _reclaim if _reclaim[n])
    def has(self, flag):
        return flag in self.must
    def may_have(self, flag):
        return flag in self.may or flag in self.must or (self.unknown and not (flag in _noreclaim and self.cleared))
    def may_reclaim(self):
        if any(_reclaim.get(n) for n in self.may):
            return True
        return self.unknown and not self.cleared

def _match_paren(t, i):
    depth = 0
    for j in range(i, len(t)):
        if t[j][1] == '(':
            depth += 1
        elif t[j][1] == ')':
            depth -= 1
            if depth == 0:
                return j
    return len(t) - 1

def _order_branch(cond, order_name):
    """For a mask "cond ? a : b" in an order loop: which branch do the attempts
    above the loop floor take?  "then", "else" or None (both)."""
    if not order_name or not re.match(r'^[A-Za-z_]\w*$', order_name):
        return None
    o = re.escape(order_name)
    c = ' '.join(str(y) for (k, y) in cond)
    if re.match(r'^%s$' % o, c) or re.search(r'\b%s\s*(>|>=|!=)' % o, c) or re.search(r'(<|<=)\s*%s\b' % o, c):
        return 'then'
    if re.match(r'^!\s*%s$' % o, c) or re.search(r'\b%s\s*(<|<=|==)' % o, c):
        return 'else'
    return None

def _negated(text):
    """Names under a ~ in a mask expression: what "mask &= ~(A | B)" clears."""
    t = _tokens(text) or []
    out, i = [], 0
    while i < len(t):
        if t[i][1] == '~' and i + 1 < len(t):
            j = _match_paren(t, i + 1) if t[i + 1][1] == '(' else i + 1
            out += [y for (k, y) in t[i + 1:j + 1] if k == 'i']
            i = j + 1
        else:
            i += 1
    return out

def _eval_tokens(t, env, order_name=None):
    st = MaskState()
    depth, q, c = 0, None, None
    for i, (k, x) in enumerate(t):
        if x == '(':
            depth += 1
        elif x == ')':
            depth -= 1
        elif depth == 0 and x == '?' and q is None:
            q = i
        elif depth == 0 and x == ':' and q is not None and c is None:
            c = i
    if q is not None and c is not None:
        a, b = _eval_tokens(t[q + 1:c], env, order_name), _eval_tokens(t[c + 1:], env, order_name)
        br = _order_branch(t[:q], order_name)
        if br:
            return a if br == 'then' else b
        st.must = a.must & b.must
        st.may = a.may | b.may
        st.unknown = a.unknown or b.unknown
        st.cleared = a.cleared and b.cleared
        return st
    removed, i = [], 0
    while i < len(t):
        k, x = t[i]
        if x == '~' and i + 1 < len(t):
            j = _match_paren(t, i + 1) if t[i + 1][1] == '(' else i + 1
            removed += [y for (kk, y) in t[i + 1:j + 1] if kk == 'i']
            i = j + 1
            continue
        if k == 'i' and i + 1 < len(t) and t[i + 1][1] == '(':
            j = _match_paren(t, i + 1)
            if x in _helper_bits:
                st.must |= _helper_bits[x]
                st.may |= _helper_bits[x]
            st.unknown = True
            i = j + 1
            continue
        if k == 'i' and x not in _types:
            if x.startswith('__GFP_') or x in _reclaim:
                st.must.add(x)
                st.may.add(x)
            else:
                v = env(x)
                if v is None:
                    st.unknown = True
                else:
                    st.union(v)
        i += 1
    st.clear(removed)
    return st

def mask_at(text, file, func, line, order_name=None, depth=0):
    """The mask an argument text carries at a call on `line`, following the
    function's assignments to plain variables above it (textual order)."""
    def env(name):
        if depth > 4:
            return None
        if (file, func, name) not in _asg:
            d = _defs.get(file, {}).get(name)
            return None if d is None else mask_at(d, file, None, None, order_name, depth + 1)
        st, seen = MaskState(), False
        for (l, op, rhs, cond) in sorted(_asg[(file, func, name)]):
            if line is not None and l >= line:
                break
            r = mask_at(rhs, file, func, l, order_name, depth + 1)
            if op == '=':
                st, seen = r, True
            elif op == '|=':
                # a guard on the order (as in the page cache: "order > min_order")
                # still makes the bit certain for the attempts that matter
                if cond is None or (order_name and re.search(r'\b%s\b' % re.escape(order_name), cond)):
                    st.union(r)
                else:
                    st.maybe(r)
            elif op == '&=':
                st.clear(_negated(rhs))
        if not seen:
            st.unknown = True
        return st
    t = _tokens(text)
    if t is None:
        st = MaskState()
        st.unknown = True
        return st
    return _eval_tokens(t, env, order_name)

def mask(text, p, order=None):
    o = str(order).strip() if order is not None else None
    return mask_at(text, p.file, p.current_element, int(p.line), o)

def var_value(o, p):
    """A plain variable's last plain assignment above p in its function."""
    o = str(o).strip()
    if not re.match(r'^[A-Za-z_]\w*$', o):
        return o
    best = None
    for (l, op, rhs, cond) in sorted(_asg.get((p.file, p.current_element, o), [])):
        if l < int(p.line):
            best = rhs if op == '=' and cond is None else None
    return best if best is not None else o

def split_top(text, sep):
    """Pieces of text between the separators not nested in brackets, stripped."""
    parts, depth, cur = [], 0, ''
    for ch in text:
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def call_args(text):
    """Name and top-level argument texts of 'name(a, b, ...)'."""
    s = str(text).strip()
    i = s.find('(')
    if i < 0 or not s.endswith(')'):
        return None, []
    name, body = s[:i].strip(), s[i + 1:-1]
    args = split_top(body, ',')
    if args and not args[-1]:
        args.pop()
    return name, args

def retry_kind(o, c, p):
    """Is the call text c, made after a NULL check of an attempt at order o,
    a fallback?  'vmalloc', 'retry' (a lower page order) or None."""
    if c == 'VM_FAULT_FALLBACK':
        return 'retry'
    name, args = call_args(c)
    if name in VMALLOC or name in KVMALLOC:
        return 'vmalloc'
    if o is None and (name in PAGE_GFP_ORDER or name in PAGE_NID_GFP_ORDER or name in ORDER0):
        return 'retry'
    if name in ORDER0:
        o2 = '0'
    elif name in PAGE_GFP_ORDER and len(args) > 1:
        o2 = args[1]
    elif name in PAGE_NID_GFP_ORDER and len(args) > 2:
        o2 = args[2]
    else:
        return None
    o = str(o).strip()
    if re.sub(r'\s', '', o2) == re.sub(r'\s', '', o):
        return None
    v1, v2 = order_value(o, p), cval(o2, p.file)
    if v1 is not None and v2 is not None and v2 >= v1:
        return None
    return 'retry'

def _norm(e):
    return re.sub(r'\s+', '', str(e))

def add_lvalue(e, p):
    _lv.setdefault(key(p), _norm(e))

def add_nullchk(e, c, q):
    _nullchk.setdefault((q.file, q.current_element), []).append((int(q.line), _norm(e), str(c)))

def add_test(e, q):
    _tests.setdefault((q.file, q.current_element), []).append((int(q.line), _norm(e)))

def add_again(e, c, q):
    _again.setdefault((q.file, q.current_element), []).append(
        (int(q.line), None if e is None else _norm(e), str(c)))

def retry_after(call, p):
    """The fallback kind of what follows the call in its function, or None:
    the first test of the stored result whose failure branch allocates again
    (if (!x) ... / if (x) ... else ...), or a test of the result followed by
    another allocation stored to the same place or returned.  Textual order
    instead of control flow: SmPL paths through #if blocks abort a file."""
    lv = _lv.get(key(p))
    if lv is None:
        return None
    fn, line = (p.file, p.current_element), int(p.line)
    o = call.amount if call.kind == 'pages' else None
    checks = [c for c in _nullchk.get(fn, []) if c[1] == lv and c[0] > line]
    if checks:
        first = min(c[0] for c in checks)
        kinds = [retry_kind(o, c[2], p) for c in checks if c[0] == first]
        kinds = [k for k in kinds if k]
        if kinds:
            return kinds[0]
    tests = [t for (t, e) in _tests.get(fn, []) if e == lv and t > line]
    if tests:
        t = min(tests)
        for (l, e, c) in sorted(_again.get(fn, [])):
            if l > t and (e is None or e == lv):
                k = retry_kind(o, c, p)
                if k:
                    return k
    return None

_while_re = re.compile(r'\s*while\s*\(')

def in_do_while(p, o):
    """Is the call at p inside a do { } while (cond) whose condition lowers
    the plain variable o?  Textual (brace matching from the call onwards):
    SmPL cannot match do-while statements at all."""
    o = str(o).strip()
    if not re.match(r'^[A-Za-z_]\w*$', o):
        return False
    lines, n = [], int(p.line)
    while len(lines) < 400:
        l = linecache.getline(p.file, n)
        if not l:
            break
        lines.append(l)
        n += 1
    text = ''.join(lines)[int(p.column):]
    # comments and literals out (built with chr(): the SmPL lexer reads
    # slashes, stars and quotes in this block too)
    sl, st, q1, q2, bs = chr(47), chr(42), chr(39), chr(34), chr(92)
    junk = (re.escape(sl + st) + '.*?' + re.escape(st + sl) + '|' + re.escape(sl + sl) + '[^\\n]*|'
            + q2 + '(' + re.escape(bs) + '.|[^' + q2 + re.escape(bs) + '])*' + q2 + '|'
            + q1 + '(' + re.escape(bs) + '.|[^' + q1 + re.escape(bs) + '])*' + q1)
    text = re.sub(junk, ' ', text, flags=re.S)
    depth = 0
    dec = re.compile(r'(\b%s\s*(--|-=|>>=)|--\s*%s\b|\b%s\s*=[^=])' % ((re.escape(o),) * 3))
    for i, ch in enumerate(text):
        if ch == '{':
            depth += 1
        elif ch != '}':
            continue
        depth -= 1
        if depth >= 0:
            continue
        if depth < -6:
            return False
        # a block we are in closes: "} while (cond);" ends a do-while
        m = _while_re.match(text, i + 1)
        if not m:
            continue
        level, j = 1, m.end()
        while j < len(text) and level:
            level += {'(': 1, ')': -1}.get(text[j], 0)
            j += 1
        if not level and text[j:].lstrip().startswith(';'):
            return bool(dec.search(text[m.end():j - 1]))
    return False

def add_asg(v, op, rhs, p):
    k = (p.file, int(p.line), str(v).strip())
    _asg.setdefault((p.file, p.current_element, str(v).strip()), []).append(
        (int(p.line), str(op).strip(), str(rhs), _cond.get(k)))

def add_cond(v, c, p):
    _cond[(p.file, int(p.line), str(v).strip())] = str(c)

def add_def(name, text, p):
    _defs.setdefault(p.file, {})[str(name).strip()] = str(text)

def or_flags(g, flags):
    """Text of mask g with flags or-ed in (those it lacks), parenthesised as needed."""
    g = str(g).strip()
    st = _eval_tokens(_tokens(g) or [], lambda n: None)
    extra = [f for f in flags if not st.has(f)]
    if not extra:
        return g
    if re.search(r'[?:=,]|&&|\|\|', g):
        g = '(' + g + ')'
    return g + ' | ' + ' | '.join(extra)

def drop_flag(g, flag):
    """Text of an or-chain mask without one flag; None unless g is an or-chain holding it."""
    g = str(g).strip()
    while g.startswith('(') and g.endswith(')') and _match_paren(_tokens(g) or [], 0) == len(_tokens(g) or []) - 1:
        g = g[1:-1].strip()
    parts = split_top(g, '|')
    if flag not in parts or any(('&' in x or '?' in x) for x in parts):
        return None
    rest = [x for x in parts if x != flag]
    return ' | '.join(rest) if rest else None

def flag(p, rule, msg, **facts):
    """Record a finding at p (one per call); the report/org/gfpaudit rules print it."""
    _flag.setdefault(key(p), (rule, msg, facts))

def flagged(p):
    return key(p) in _flag

def message(p):
    rule, msg, _ = _flag[key(p)]
    return 'WARNING: %s [%s]' % (msg, rule)

def emit(p):
    """One JSON object a line for gfpaudit audit --cocci (spatch -D gfpaudit)."""
    rule, msg, facts = _flag[key(p)]
    d = {'file': p.file, 'line': int(p.line), 'column': int(p.column) + 1,
         'function': p.current_element, 'api': api_at(p) or None,
         'rule': rule, 'message': msg}
    for k in ('gfp', 'order'):
        if facts.get(k) is not None:
            d[k] = re.sub(r'\s+', ' ', str(facts[k])).strip()
    for k in ('fallback', 'order_value'):
        if facts.get(k) is not None:
            d[k] = facts[k]
    print('gfpaudit-cocci: ' + json.dumps(d, sort_keys=True))

_patch = set()  # (file, line, col) of flagged calls the patch rules may edit
_new = {}       # (file, line, col) -> replacement text for patch mode

def patchable(p):
    return key(p) in _patch
