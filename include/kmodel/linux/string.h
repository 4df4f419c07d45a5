/* Model of include/linux/string.h: the memory helpers and the duplicating
 * allocators (kmemdup is an alloc_hooks() macro in 6.12, memdup_user is a
 * plain function that allocates with GFP_USER | __GFP_NOWARN). */
#ifndef _KMODEL_LINUX_STRING_H
#define _KMODEL_LINUX_STRING_H
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/alloc_tag.h>
#include <linux/err.h>

void *memcpy(void *dest, const void *src, size_t count);
void *memmove(void *dest, const void *src, size_t count);
void *memset(void *s, int c, size_t count);
int memcmp(const void *cs, const void *ct, size_t count);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t count);
int strcmp(const char *cs, const char *ct);
char *strchr(const char *s, int c);
ssize_t strscpy(char *dest, const char *src, size_t count);

void *memdup_user(const void __user *src, size_t len) __realloc_size(2);
void *vmemdup_user(const void __user *src, size_t len) __realloc_size(2);
void *memdup_user_nul(const void __user *src, size_t len);

char *kstrdup(const char *s, gfp_t gfp) __malloc;
char *kstrndup(const char *s, size_t max, gfp_t gfp);
void *kmemdup_noprof(const void *src, size_t len, gfp_t gfp) __realloc_size(2);
#define kmemdup(...)	alloc_hooks(kmemdup_noprof(__VA_ARGS__))
void *kvmemdup(const void *src, size_t len, gfp_t gfp) __realloc_size(2);
char *kmemdup_nul(const char *s, size_t len, gfp_t gfp);

#endif
