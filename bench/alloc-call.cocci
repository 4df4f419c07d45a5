// One purely syntactic rule: every call of a page-allocator or kmalloc-family
// function.  The bench's yardstick when rules/ has no semantic patches.
virtual context

@depends on context@
identifier f =~ "^(__)?(alloc_pages|alloc_pages_node|alloc_pages_exact|get_free_pages|get_zeroed_page|folio_alloc|filemap_alloc_folio|vma_alloc_folio|kmalloc|kzalloc|kmalloc_array|kcalloc|kmalloc_node|kzalloc_node|kvmalloc|kvzalloc|kvmalloc_array|kvcalloc|kvmalloc_node)(_noprof)?$";
expression list args;
@@
* f(args)
