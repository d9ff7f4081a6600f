/*
 * NAME
 *	hash - XXH3-64 digests as the spool prints them
 * SYNOPSIS
 *	char text[HASH_TEXT_LEN];
 *	hash_format(hash_buf(buf, len), text);	-> "xxh3:1d2c0a..."
 * DESCRIPTION
 *	Plans record the digest of each input so that a changed input is seen
 *	without comparing contents, and history stores objects by digest.
 *	The text form is "xxh3:" and 16 lower-case hex digits.
 */
#ifndef BF_HASH_H
#define BF_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "util/log.h"

#define HASH_TEXT_LEN 22

uint64_t hash_buf(const void *buf, size_t len);
void hash_format(uint64_t h, char text[HASH_TEXT_LEN]);
int hash_parse(const char *text, uint64_t *h);
int hash_file_at(int dirfd, const char *name, uint64_t *h, struct diag *d);

#endif
