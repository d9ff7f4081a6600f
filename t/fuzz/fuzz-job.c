/* libFuzzer: the job file parser, as a user's file and as bftrainer's. */
#include "fuzz.h"
#include "job.h"

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
	if (job_parse(&j, "f.yaml", buf, size, JOB_TRUSTED | JOB_QUIET,
	    &d) == 0) {
		/* As bftrainer's own: written, read back, written alike. */
		char *text2;
		size_t len2;
		text = job_format(&j, &len);
		if (text == NULL || job_parse(&again, "c.yaml", text, len,
		    JOB_TRUSTED | JOB_QUIET, &d) < 0)
			abort();
		text2 = job_format(&again, &len2);
		if (text2 == NULL || len2 != len || memcmp(text, text2, len))
			abort();
		free(text2);
		free(text);
		job_free(&again);
		job_free(&j);
	}
	free(buf);
	return 0;
}
