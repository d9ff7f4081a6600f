/* libFuzzer: the job file parser, as a user's file and as bftrainer's. */
#include "fuzz.h"
#include "spool/job.h"

static char *
rewrite_trusted(const char *text, size_t len, size_t *outlen)
{
	struct job j;
	struct diag d;
	char *out;

	if (job_parse(&j, "f.yaml", text, len, JOB_TRUSTED | JOB_QUIET,
	    &d) < 0)
		return NULL;
	if ((out = job_format(&j, outlen)) == NULL)
		abort();
	job_free(&j);
	return out;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size), *text;
	struct diag d;
	struct job j, again;
	size_t len;

	if (job_parse(&j, "f.yaml", buf, size, JOB_QUIET, &d) == 0) {
		/* What is accepted must be written and read back the same. */
		text = job_format(&j, &len);
		if (text == NULL || job_parse(&again, "c.yaml", text, len,
		    JOB_TRUSTED | JOB_QUIET, &d) < 0)
			abort();
		if (strcmp(again.name, j.name) != 0 ||
		    strcmp(again.command, j.command) != 0 ||
		    again.min_nodes != j.min_nodes ||
		    again.max_nodes != j.max_nodes ||
		    again.npoints != j.npoints)
			abort();
		job_free(&again);
		free(text);
		job_free(&j);
	}
	/* As bftrainer's own file, written back as it is stored. */
	fuzz_fixed_point(buf, size, rewrite_trusted);
	free(buf);
	return 0;
}
