/*
 * NAME
 *	hash - XXH3-64 digests as the spool prints them
 * DESCRIPTION
 *	See hash.h.  Files are hashed in 64 KiB blocks with the streaming API,
 *	so the memory used does not depend on the file's size.
 * DIAGNOSTICS
 *	hash_file_at() fails with the open or read error; hash_parse() returns
 *	-1 for anything but the exact text form.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "util/hash.h"

uint64_t
hash_buf(const void *buf, size_t len)
{
	return XXH3_64bits(buf, len);
}

void
hash_format(uint64_t h, char text[HASH_TEXT_LEN])
{
	snprintf(text, HASH_TEXT_LEN, "xxh3:%016" PRIx64, h);
}

int
hash_parse(const char *text, uint64_t *h)
{
	uint64_t v = 0;
	int i;

	if (strncmp(text, "xxh3:", 5) != 0 || strlen(text) != 21)
		return -1;
	for (i = 5; i < 21; i++) {
		char c = text[i];
		int digit;
		if (c >= '0' && c <= '9')
			digit = c - '0';
		else if (c >= 'a' && c <= 'f')
			digit = c - 'a' + 10;
		else
			return -1;
		v = v << 4 | (uint64_t)digit;
	}
	*h = v;
	return 0;
}

int
hash_file_at(int dirfd, const char *name, uint64_t *h, struct diag *d)
{
	char block[65536];
	XXH3_state_t *state;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0) {
		diag_errno(d, errno, "unable to open %s", name);
		if (errno == ENOENT)
			d->code = EX_NOINPUT;
		return -1;
	}
	state = XXH3_createState();
	if (state == NULL || XXH3_64bits_reset(state) == XXH_ERROR) {
		XXH3_freeState(state);
		close(fd);
		return diag_errno(d, ENOMEM, "unable to hash %s", name);
	}
	for (;;) {
		ssize_t n = read(fd, block, sizeof block);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			XXH3_freeState(state);
			close(fd);
			diag_errno(d, err, "unable to read %s", name);
			d->code = EX_IOERR;
			return -1;
		}
		if (n == 0)
			break;
		XXH3_64bits_update(state, block, (size_t)n);
	}
	*h = XXH3_64bits_digest(state);
	XXH3_freeState(state);
	close(fd);
	return 0;
}
