/*
 * NAME
 *	array - room for more elements of a growable array
 * SYNOPSIS
 *	struct node *v = array_grow(ns->v, &ns->cap, ns->n + 1, sizeof *v, 64);
 *	if (v == NULL)
 *		return -1;		errno is ENOMEM, ns->v still valid
 *	ns->v = v;
 *	long i = array_index(names, sizeof names / sizeof names[0], "dp");
 *	size_t at = array_find_name(v, n, sizeof *v, offsetof(struct e, name),
 *	    "job1", &found);
 * DESCRIPTION
 *	array_grow() returns array with room for at least need elements of
 *	size bytes, moved by realloc() if *cap is less: the capacity starts
 *	at first (or need, if more) and doubles, and *cap says the new one.
 *	The pointer is returned rather than updated through a void ** so
 *	that no array of another type is written through one.
 *
 *	array_index() is the index of the string s in names[0..n-1], -1
 *	when it is none of them: the name table of an enum, read back.
 *
 *	array_find_name() searches n elements of size bytes at base, kept in
 *	strcmp() order of the string each holds at offset off (a char array
 *	in the element, a name), for name: the index of the element that
 *	holds it (*found 1), or where it would go (*found 0).  The caches of
 *	bf-watch's passes (500 jobs and more) look names up this way.
 * DIAGNOSTICS
 *	NULL with errno ENOMEM when memory or size_t runs out; array and *cap
 *	are then unchanged.
 */
#ifndef BF_ARRAY_H
#define BF_ARRAY_H

#include <stddef.h>

void *array_grow(void *array, size_t *cap, size_t need, size_t size,
    size_t first);
long array_index(const char *const names[], size_t n, const char *s);
size_t array_find_name(const void *base, size_t n, size_t size, size_t off,
    const char *name, int *found);

/* The median of v[0 .. n), which it sorts; 0 when n is 0. */
double array_median(double *v, size_t n);

#endif
