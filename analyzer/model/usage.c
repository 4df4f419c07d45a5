/* Contiguity of an allocation's memory from its uses (see usage.h). */
#include <stdlib.h>
#include <string.h>
#include "gfpaudit/usage.h"
#include "gfpaudit/strbuf.h"
#include "gfpaudit/facts.h"
#include "gfpaudit/provenance.h"
#include "gfpaudit/result.h"

/* Uses that need the memory physically contiguous (page-level and
 * physical-address APIs, DMA, scatterlists, user mappings, register
 * writes). */
static const char *const physical_users[] = {
	"dma_map_single", "dma_map_single_attrs", "dma_map_page", "dma_map_page_attrs",
	"dma_map_resource", "virt_to_phys", "__pa", "__pa_symbol", "virt_to_bus", "virt_to_page",
	"virt_to_pfn", "virt_to_head_page", "virt_to_folio", "page_to_phys", "page_to_pfn",
	"folio_pfn", "page_to_virt_phys", "sg_set_buf", "sg_init_one", "sg_set_page", "sg_set_folio",
	"remap_pfn_range", "io_remap_pfn_range", "vm_insert_page", "vm_insert_pages", "vmf_insert_pfn",
	"vm_map_pages", "dma_mmap_coherent", "set_memory_ro", "set_memory_rw", "set_memory_x",
	"set_memory_nx", "set_memory_uc", "set_memory_wc", "set_memory_wb", "set_memory_decrypted",
	"set_memory_encrypted", "set_memory_np", "set_pages_uc", "set_pages_wb", "set_pages_ro",
	"set_pages_rw", "set_direct_map_invalid_noflush", "split_page", "SetPageReserved",
	"__SetPageReserved", "ClearPageReserved", "mark_page_reserved", "get_page", "page_ref_inc",
	"skb_fill_page_desc", "skb_add_rx_frag", "__skb_fill_page_desc", "bio_add_page",
	"__bio_add_page", "bio_add_folio", "kmap_to_page", "flush_dcache_page", "clflush_cache_range",
	"writel", "writeq", "writel_relaxed", "writeq_relaxed", "iowrite32", "iowrite64",
	"lo_hi_writeq", "hi_lo_writeq", "__raw_writel", "__raw_writeq", "outl",
	/* USB transfers: the host controller driver maps the buffer for DMA
	 * (usb_hcd_map_urb_for_dma); usb_control_msg_send/recv copy instead */
	"usb_fill_bulk_urb", "usb_fill_int_urb", "usb_fill_control_urb", "usb_bulk_msg",
	"usb_interrupt_msg", "usb_control_msg",
	NULL,
};

/* Fields whose memory a subsystem maps for DMA: a store there is a
 * physical use (struct, field). */
static const char *const physical_fields[][2] = {
	{ "urb", "transfer_buffer" },
	{ "urb", "setup_packet" },
};

/* The physical field an lvalue names (struct name "S.f"; new string), or NULL. */
static char *physical_field(struct node *lv)
{
	lv = node_strip(lv);
	if (lv->kind != CXCursor_MemberRefExpr)
		return NULL;
	CXCursor f = clang_getCursorReferenced(lv->cur);
	if (clang_getCursorKind(f) != CXCursor_FieldDecl)
		return NULL;
	CXCursor parent = clang_getCursorSemanticParent(f);
	CXString sn = clang_getCursorSpelling(parent), fn = clang_getCursorSpelling(f);
	char *out = NULL;
	for (size_t i = 0; !out && i < sizeof(physical_fields) / sizeof(physical_fields[0]); i++)
		if (!strcmp(clang_getCString(sn), physical_fields[i][0]) &&
		    !strcmp(clang_getCString(fn), physical_fields[i][1]))
			out = xasprintf("%s.%s", physical_fields[i][0], physical_fields[i][1]);
	clang_disposeString(sn);
	clang_disposeString(fn);
	return out;
}

/* Uses that only read, write, copy or free through the virtual address. */
static const char *const virtual_users[] = {
	"memcpy", "memmove", "memset", "memcmp", "memchr", "memscan", "memzero_explicit",
	"copy_to_user", "copy_from_user", "__copy_to_user", "__copy_from_user", "copy_to_iter",
	"copy_from_iter", "_copy_to_iter", "_copy_from_iter", "copy_from_sockptr", "copy_to_sockptr",
	"strscpy", "strcpy", "strncpy", "strlcpy", "strlen", "strnlen", "strcmp", "strncmp",
	"snprintf", "scnprintf", "sprintf", "vsnprintf", "vscnprintf", "sscanf", "kstrtouint",
	"kstrtoint", "kstrtoul", "simple_read_from_buffer", "simple_write_to_buffer", "seq_write",
	"print_hex_dump", "print_hex_dump_bytes", "hex_dump_to_buffer", "sort", "bsearch",
	"crc32_le", "crc32c", "bitmap_zero", "bitmap_fill", "bitmap_copy", "bitmap_set",
	"bitmap_clear", "bitmap_weight", "set_bit", "clear_bit", "test_bit", "__set_bit",
	"__clear_bit", "test_and_set_bit", "test_and_clear_bit", "find_first_bit", "find_next_bit",
	"find_first_zero_bit", "find_next_zero_bit", "memcpy_toio", "memcpy_fromio",
	NULL,
};

/* Frees and bookkeeping: neither kind of use. */
static const char *const neutral_users[] = {
	"kfree", "kvfree", "kfree_sensitive", "kvfree_sensitive", "vfree", "kzfree", "free_pages",
	"__free_pages", "free_page", "__free_page", "put_page", "folio_put", "free_pages_exact",
	"kmemleak_not_leak", "IS_ERR", "IS_ERR_OR_NULL", "PTR_ERR", "WARN_ON", "unlikely", "likely",
	NULL,
};

/* Calls whose result is the same memory seen another way. */
static const char *const alias_makers[] = {
	"page_address", "folio_address", "lowmem_page_address", "kmap", "kmap_local_page",
	"kmap_atomic", "kmap_local_folio", "folio_page", "page_folio", "PTR_ALIGN", "ERR_CAST",
	"lower_32_bits", "upper_32_bits",
	NULL,
};

static bool in_list(const char *const *l, const char *name)
{
	for (size_t i = 0; name && l[i]; i++)
		if (!strcmp(l[i], name))
			return true;
	return false;
}

/* A place the memory is known by: a local (or parameter) of a function,
 * or a struct field anywhere in the file. */
struct ukey {
	const struct fn_model *fn; /* NULL: a field */
	int var;
	CXCursor field;
	bool elems; /* a field whose elements hold the memory (f[i] = p) */
};

struct uscan {
	const struct usage_scope *sc;
	struct ukey *k;
	size_t nk, alloc;
	enum contiguity phys_or_unknown; /* CONTIG_PHYSICAL once seen */
	int phys_line, unk_line, uses;
	char *phys_why, *unk_why;
	bool changed;
};

static void add_key_elems(struct uscan *u, const struct fn_model *fn, int var, CXCursor field, bool elems)
{
	for (size_t i = 0; i < u->nk; i++) {
		if (fn && u->k[i].fn == fn && u->k[i].var == var)
			return;
		if (!fn && !u->k[i].fn && clang_equalCursors(u->k[i].field, field))
			return;
	}
	if (u->nk >= 32)
		return;
	ALLOC_GROW(u->k, u->nk + 1, u->alloc);
	u->k[u->nk++] = (struct ukey){ fn, var, field, elems };
	u->changed = true;
}

static void add_key(struct uscan *u, const struct fn_model *fn, int var, CXCursor field)
{
	add_key_elems(u, fn, var, field, false);
}

/* Add the place an lvalue node names (a local or a field). */
static bool add_lvalue(struct uscan *u, const struct fn_model *fn, struct node *lv)
{
	lv = node_strip(lv);
	if (lv->kind == CXCursor_ArraySubscriptExpr && lv->nkids == 2) {
		/* s->bufs[i] = p: every element of the field holds such memory */
		struct node *base = node_strip(lv->kids[0]);
		if (base->kind != CXCursor_MemberRefExpr)
			return false;
		CXCursor f = clang_getCursorReferenced(base->cur);
		if (clang_getCursorKind(f) != CXCursor_FieldDecl)
			return false;
		add_key_elems(u, NULL, -1, f, true);
		return true;
	}
	if (lv->kind == CXCursor_DeclRefExpr && lv->var >= 0 && !fn->vars[lv->var].is_member) {
		add_key(u, fn, lv->var, clang_getNullCursor());
		return true;
	}
	if (lv->kind == CXCursor_MemberRefExpr) {
		CXCursor f = clang_getCursorReferenced(lv->cur);
		if (clang_getCursorKind(f) == CXCursor_FieldDecl) {
			add_key(u, NULL, -1, f);
			return true;
		}
	}
	return false;
}

static const struct ukey *node_key(const struct uscan *u, const struct fn_model *fn, const struct node *n)
{
	if (n->kind == CXCursor_DeclRefExpr && n->var >= 0) {
		for (size_t i = 0; i < u->nk; i++)
			if (u->k[i].fn == fn && u->k[i].var == n->var)
				return &u->k[i];
		return NULL;
	}
	if (n->kind != CXCursor_MemberRefExpr)
		return NULL;
	CXCursor f = clang_getCursorReferenced(n->cur);
	for (size_t i = 0; i < u->nk; i++)
		if (!u->k[i].fn && clang_equalCursors(u->k[i].field, f))
			return &u->k[i];
	return NULL;
}

static const struct fn_model *find_fn(const struct usage_scope *sc, const char *name)
{
	for (size_t i = 0; name && i < sc->n; i++)
		if (sc->fns[i]->in_main && sc->fns[i]->name && !strcmp(sc->fns[i]->name, name))
			return sc->fns[i];
	return NULL;
}

static void note_unknown(struct uscan *u, const struct node *n, char *why)
{
	if (!u->unk_line) {
		u->unk_line = (int)n->line;
		u->unk_why = why;
	} else {
		free(why);
	}
}

/* Follow one use of the memory at node n (a reference to a key) up to
 * what consumes it. */
static void classify_use(struct uscan *u, const struct fn_model *fn, struct node *n, bool elems)
{
	struct node *c = n;
	for (struct node *p = n->parent; p; c = p, p = p->parent) {
		if (elems) {
			/* s->bufs[i]: the element is the pointer to the memory */
			if (p->kind == CXCursor_ParenExpr || p->kind == CXCursor_UnexposedExpr)
				continue;
			if (p->kind != CXCursor_ArraySubscriptExpr || !p->nkids || p->kids[0] != c)
				return;
			elems = false;
			continue;
		}
		switch (p->kind) {
		case CXCursor_ParenExpr:
		case CXCursor_UnexposedExpr:
		case CXCursor_CStyleCastExpr:
			continue;
		case CXCursor_MemberRefExpr:
		case CXCursor_ArraySubscriptExpr:
			u->uses++; /* p->x, p[i]: reads and writes through it */
			return;
		case CXCursor_UnaryOperator:
			if (p->op && !strcmp(p->op, "*")) {
				u->uses++;
				return;
			}
			if (p->op && !strcmp(p->op, "&"))
				continue;
			return; /* !p, p++: a test or a step */
		case CXCursor_BinaryOperator:
			if (p->op && !strcmp(p->op, "=")) {
				char *pf = p->nkids == 2 && p->kids[1] == c ? physical_field(p->kids[0]) : NULL;
				if (pf && u->phys_or_unknown != CONTIG_PHYSICAL) {
					u->phys_or_unknown = CONTIG_PHYSICAL;
					u->phys_line = (int)p->line;
					u->phys_why = xasprintf("stored in '%s' (mapped for DMA)", pf);
				}
				if (pf) {
					free(pf);
					return;
				}
				if (p->nkids == 2 && p->kids[1] == c)
					add_lvalue(u, fn, p->kids[0]);
				return;
			}
			if (p->op && (!strcmp(p->op, "+") || !strcmp(p->op, "-")))
				continue; /* pointer arithmetic: the same buffer */
			return;           /* comparisons, tests */
		case CXCursor_VarDecl:
			if (p->var >= 0)
				add_key(u, fn, p->var, clang_getNullCursor());
			return;
		case CXCursor_ReturnStmt:
			note_unknown(u, p, xasprintf("returned from '%s'", fn->name ? fn->name : "?"));
			return;
		case CXCursor_CallExpr: {
			if (p->nkids && c == p->kids[0])
				return; /* the callee */
			const char *name = p->name;
			if (in_list(physical_users, name)) {
				if (u->phys_or_unknown != CONTIG_PHYSICAL) {
					u->phys_or_unknown = CONTIG_PHYSICAL;
					u->phys_line = (int)p->line;
					u->phys_why = xasprintf("reaches '%s'", name);
				}
				return;
			}
			if (in_list(virtual_users, name)) {
				u->uses++;
				return;
			}
			if (in_list(neutral_users, name))
				return;
			if (in_list(alias_makers, name))
				continue;
			const struct fn_model *callee = find_fn(u->sc, name);
			if (callee) {
				/* a same-file function: follow its parameter */
				for (unsigned i = 0; i < node_nargs(p); i++)
					if (node_arg(p, i) == c)
						for (int v = 0; v < callee->nvars; v++)
							if (callee->vars[v].param == (int)i)
								add_key(u, callee, v, clang_getNullCursor());
				return;
			}
			if (name && u->sc->facts) {
				/* a function of another file: its parameter's fact */
				for (unsigned i = 0; i < node_nargs(p); i++) {
					if (node_arg(p, i) != c)
						continue;
					char *key = usage_key(name, (int)i);
					struct fact_value v;
					bool phys = factbase_get(u->sc->facts, key, &v) && v.iv.known && v.iv.lo == 1;
					free(key);
					if (phys && u->phys_or_unknown != CONTIG_PHYSICAL) {
						u->phys_or_unknown = CONTIG_PHYSICAL;
						u->phys_line = (int)p->line;
						u->phys_why = xasprintf("reaches a physical use in '%s' (%s)", name,
									v.where ? v.where : "another file");
					}
					if (phys)
						return;
				}
			}
			note_unknown(u, p, xasprintf("passed to '%s'", name ? name : "a function pointer"));
			return;
		}
		default:
			return;
		}
	}
}

static void walk(struct uscan *u, const struct fn_model *fn, struct node *n)
{
	if (n->kind == CXCursor_UnaryExpr)
		return; /* sizeof(*p), alignof: no use of the memory */
	const struct ukey *k = node_key(u, fn, n);
	if (k) {
		/* a write of the place itself ("p = NULL") is no use */
		struct node *p = n->parent;
		while (p && (p->kind == CXCursor_ParenExpr || p->kind == CXCursor_UnexposedExpr))
			p = p->parent;
		bool lhs = p && p->kind == CXCursor_BinaryOperator && p->op && !strcmp(p->op, "=") &&
			   p->nkids == 2 && node_contains(p->kids[0], n);
		if (!lhs)
			classify_use(u, fn, n, k->elems);
	}
	for (unsigned i = 0; i < n->nkids; i++)
		walk(u, fn, n->kids[i]);
}

/* Scan from the places in u (set up by the caller) to a verdict: new
 * places found on one round are followed on the next. */
static void scan_rounds(struct uscan *u)
{
	const struct usage_scope *sc = u->sc;
	for (int round = 0; round < 4 && u->changed && u->phys_or_unknown != CONTIG_PHYSICAL; round++) {
		u->changed = false;
		u->uses = 0;
		free(u->unk_why);
		u->unk_why = NULL;
		u->unk_line = 0;
		bool field = false;
		for (size_t i = 0; i < u->nk; i++)
			field |= !u->k[i].fn;
		for (size_t i = 0; i < sc->n; i++) {
			const struct fn_model *f = sc->fns[i];
			bool mine = false;
			for (size_t k = 0; k < u->nk; k++)
				mine |= u->k[k].fn == f;
			if ((mine || (field && f->in_main)) && f->body)
				walk(u, f, f->body);
		}
	}
}

enum contiguity usage_contiguity(const struct usage_scope *sc, const struct fn_model *fn,
				 const struct node *target, int *line, char **why)
{
	struct uscan u = { .sc = sc };
	*line = 0;
	*why = NULL;
	if (!target)
		return CONTIG_UNKNOWN;
	if (target->kind == CXCursor_ReturnStmt) {
		*line = (int)target->line;
		*why = xasprintf("returned from '%s'", fn->name ? fn->name : "?");
		return CONTIG_UNKNOWN;
	}
	if (target->kind == CXCursor_VarDecl && target->var >= 0)
		add_key(&u, fn, target->var, clang_getNullCursor());
	else if (target->kind == CXCursor_BinaryOperator && target->nkids == 2)
		add_lvalue(&u, fn, target->kids[0]);
	if (!u.nk)
		return CONTIG_UNKNOWN;
	scan_rounds(&u);
	enum contiguity r;
	if (u.phys_or_unknown == CONTIG_PHYSICAL) {
		r = CONTIG_PHYSICAL;
		*line = u.phys_line;
		*why = u.phys_why;
		u.phys_why = NULL;
	} else if (u.unk_line) {
		r = CONTIG_UNKNOWN;
		*line = u.unk_line;
		*why = u.unk_why;
		u.unk_why = NULL;
	} else {
		r = u.uses ? CONTIG_VIRTUAL : CONTIG_UNKNOWN;
	}
	free(u.phys_why);
	free(u.unk_why);
	free(u.k);
	return r;
}

char *usage_key(const char *name, int i)
{
	return xasprintf("contig:%s#%d", name, i);
}

void usage_publish(const struct usage_scope *sc, const char *file, struct file_result *out)
{
	(void)file;
	for (size_t i = 0; i < sc->n; i++) {
		const struct fn_model *f = sc->fns[i];
		if (!f->in_main || !f->body || !f->name || clang_Cursor_getStorageClass(f->cur) == CX_SC_Static)
			continue;
		for (int v = 0; v < f->nvars; v++) {
			if (f->vars[v].param < 0)
				continue;
			CXType ty = clang_getCanonicalType(clang_getCursorType(f->vars[v].decl));
			if (ty.kind != CXType_Pointer)
				continue;
			struct uscan u = { .sc = sc };
			add_key(&u, f, v, clang_getNullCursor());
			scan_rounds(&u);
			if (u.phys_or_unknown == CONTIG_PHYSICAL) {
				char *key = usage_key(f->name, f->vars[v].param);
				file_result_add_fact(out, key, iv_const(1), SRCB(CONST), u.phys_line);
				free(key);
			}
			free(u.phys_why);
			free(u.unk_why);
			free(u.k);
		}
	}
}
